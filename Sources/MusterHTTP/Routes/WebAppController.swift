import Foundation
import HTTPTypes
import Hummingbird
import MusterWire
import NIOCore

/// The web app: its shell at `/` (with the service worker and manifest beside it), its files under
/// `/app/<version>/` with long cache lifetimes, its settings at `/app/config.json`, and Debian's Leaflet under
/// `/vendor/leaflet/`. No login: the app logs in through the API.
struct WebAppController: APIController {
    let options: WebAppOptions

    func addRoutes(to routes: some RouterMethods<API.Context>) {
        routes
            .get("/", use: { request, _ in try shell("index.html", request) })
            .get("sw.js", use: { request, _ in try shell("sw.js", request) })
            .get("manifest.webmanifest", use: { request, _ in try shell("manifest.webmanifest", request) })
            .get("icon.svg", use: { request, _ in try shell("icon.svg", request) })
            .get("app/config.json", use: { _, _ in try configuration() })
            .get("app/:version/**", use: versioned)
            .get("vendor/leaflet/**", use: vendor)
    }

    /// The files now: those compiled in, or with `--web-directory` those on disk.
    private func files() throws -> WebAppFiles {
        guard let directory = options.directory else { return .embedded }
        return try WebAppFiles.reading(directory)
    }

    /// A file of the shell: always revalidated, so a new version is seen on the next visit.
    private func shell(_ path: String, _ request: Request) throws -> Response {
        let file = try files().files[path].orThrow(notFound(path))
        var headers: HTTPFields = [.cacheControl: "no-cache"]
        if path == "index.html" { headers.append(contentsOf: securityHeaders) }
        if path == "sw.js" { headers[HTTPField.Name("Service-Worker-Allowed")!] = "/" }
        return answer(file, to: request, headers: headers)
    }

    /// A file under `/app/<version>/`: immutable for a year when it is of the version served now; an older
    /// version's page gets today's file, revalidated.
    @Sendable func versioned(_ request: Request, context: API.Context) async throws -> Response {
        let files = try files()
        let path = context.remainingPath()
        let file = try files.files[path].orThrow(notFound(path))
        let current = context.parameters.get("version") == files.version && options.directory == nil
        return answer(
            file, to: request, headers: [.cacheControl: current ? "public, max-age=31536000, immutable" : "no-cache"])
    }

    /// What the app needs to know of the server: where map tiles come from, how people sign in when an OpenID
    /// Connect issuer vouches for them, and where a form's dashboard field leads.
    private func configuration() throws -> Response {
        struct Configuration: Encodable {
            var mapTiles: String?
            var mapAttribution: String
            var singleSignOn: SingleSignOn?
            var dashboard: String?
        }
        let body = try MusterJSON.encoder().encode(
            Configuration(
                mapTiles: options.mapTiles, mapAttribution: options.mapAttribution,
                singleSignOn: options.singleSignOn, dashboard: options.dashboard))
        return Response(
            status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// A file of Debian's Leaflet (`libjs-leaflet`), with the package's own `.gz` when the browser takes gzip.
    @Sendable func vendor(_ request: Request, context: API.Context) async throws -> Response {
        let path = context.remainingPath()
        guard !path.split(separator: "/").contains(where: { $0 == ".." || $0.hasPrefix(".") }) else {
            throw notFound(path)
        }
        let url = options.vendorDirectory.appendingPathComponent("leaflet").appendingPathComponent(path)
        guard let bytes = FileManager.default.contents(atPath: url.path) else {
            throw APIError(
                .notFound, "not_found",
                "no \(path) in \(url.deletingLastPathComponent().path): install Debian's libjs-leaflet for maps")
        }
        var file = WebAppFile(path: path, bytes: bytes)
        if acceptsGzip(request), let packed = FileManager.default.contents(atPath: url.path + ".gz") {
            file = WebAppFile(body: ByteBuffer(bytes: bytes), gzipped: ByteBuffer(bytes: packed), of: file)
        }
        return answer(file, to: request, headers: [.cacheControl: "public, max-age=86400"])
    }

    /// `file` as the answer to `request`: 304 when the browser holds it already, gzip when it takes that.
    private func answer(_ file: WebAppFile, to request: Request, headers: HTTPFields) -> Response {
        var headers = headers
        headers[.eTag] = file.etag
        headers[.vary] = "Accept-Encoding"
        headers[.contentType] = file.contentType
        headers[.xContentTypeOptions] = "nosniff"
        if let tags = request.headers[.ifNoneMatch],
            tags.split(separator: ",").contains(where: {
                $0.trimmingCharacters(in: .whitespaces) == file.etag
            })
        {
            return Response(status: .notModified, headers: headers)
        }
        var body = file.body
        if let gzipped = file.gzipped, acceptsGzip(request) {
            headers[.contentEncoding] = "gzip"
            body = gzipped
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
    }

    private func acceptsGzip(_ request: Request) -> Bool {
        request.headers[.acceptEncoding]?.split(separator: ",").contains {
            $0.split(separator: ";").first?.trimmingCharacters(in: .whitespaces) == "gzip"
        } ?? false
    }

    /// The page's protection: scripts, styles and connections only from this server (and the issuer's token
    /// endpoint with single sign-on); images also from the map tiles' origin; media and frames from blobs the app
    /// makes of documents and recordings.
    private var securityHeaders: HTTPFields {
        let tiles = options.mapTilesOrigin.map { " " + $0 } ?? ""
        let issuer = options.singleSignOn?.tokenOrigin.map { " " + $0 } ?? ""
        let policy = [
            "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data: blob:\(tiles)",
            "media-src 'self' blob:", "connect-src 'self'\(issuer)", "worker-src 'self'", "manifest-src 'self'",
            "frame-src 'self' blob:", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'",
            "form-action 'none'",
        ].joined(separator: "; ")
        return [
            .contentSecurityPolicy: policy, HTTPField.Name("Referrer-Policy")!: "no-referrer",
            HTTPField.Name("X-Frame-Options")!: "DENY",
        ]
    }

    private func notFound(_ path: String) -> APIError {
        APIError(.notFound, "not_found", "no file \(path) in the web app")
    }
}

extension Optional {
    fileprivate func orThrow(_ error: @autoclosure () -> some Error) throws -> Wrapped {
        guard let self else { throw error() }
        return self
    }
}
