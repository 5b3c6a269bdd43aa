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

    public init() {}

    /// The origin of `mapTiles` (scheme, host and port), which the Content-Security-Policy lets images load from.
    var mapTilesOrigin: String? {
        guard let mapTiles, let url = URL(string: mapTiles.replacing("{", with: "").replacing("}", with: "")),
            let scheme = url.scheme, let host = url.host
        else { return nil }
        return url.port.map { "\(scheme)://\(host):\($0)" } ?? "\(scheme)://\(host)"
    }
}
