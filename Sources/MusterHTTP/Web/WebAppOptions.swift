import Foundation

/// How `muster serve` serves the web app at `/`.
public struct WebAppOptions: Sendable {
    /// Serve the app's files from this directory, read again on every request, instead of the copy compiled into
    /// the binary (`serve --web-directory`, for working on the app).
    public var directory: URL?
    /// Where Debian's `libjs-*` packages put the libraries the app uses (Leaflet), served under `/vendor/`.
    public var vendorDirectory = URL(fileURLWithPath: "/usr/share/javascript")
    /// The map tiles' URL template (`{z}`, `{x}`, `{y}`); nil: maps draw their markers and circles without tiles.
    public var mapTiles: String? = "https://tile.openstreetmap.org/{z}/{x}/{y}.png"
    /// The tiles' attribution, shown on every map.
    public var mapAttribution = "© OpenStreetMap contributors"
    /// Signing in through the issuer when the server takes OpenID Connect tokens; nil: the app's own login form.
    public var singleSignOn: SingleSignOn?
    /// Where a form's dashboard field leads, `{tab}` standing for its `startTab`; nil: Muster has none to show.
    public var dashboard: String?

    public init() {}

    /// The origin of `mapTiles` (scheme, host and port), which the Content-Security-Policy lets images load from.
    var mapTilesOrigin: String? {
        mapTiles.flatMap { SingleSignOn.origin(of: $0.replacing("{", with: "").replacing("}", with: "")) }
    }
}
