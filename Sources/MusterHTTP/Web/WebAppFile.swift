import CompressNIO
import Crypto
import Foundation
import NIOCore

/// One file of the web app as it is sent: its bytes, their gzip form when that is smaller, an ETag over the bytes,
/// and the content type its name implies.
struct WebAppFile: Sendable {
    let body: ByteBuffer
    let gzipped: ByteBuffer?
    let etag: String
    let contentType: String

    init(path: String, bytes: some Collection<UInt8>) {
        body = ByteBuffer(bytes: bytes)
        let digest = SHA256.hash(data: Array(bytes))
        etag = "\"" + Data(digest.prefix(12)).base64EncodedString().replacing("/", with: "_") + "\""
        contentType = Self.contentType(of: path)
        gzipped = Self.compressible(contentType) ? Self.gzip(body) : nil
    }

    /// `file` with other bytes (such as a package's own `.gz` beside it).
    init(body: ByteBuffer, gzipped: ByteBuffer?, of file: WebAppFile) {
        self.body = body
        self.gzipped = gzipped
        etag = file.etag
        contentType = file.contentType
    }

    /// The gzip form of `body`, when it is smaller by more than a few bytes.
    private static func gzip(_ body: ByteBuffer) -> ByteBuffer? {
        var input = body
        guard let compressed = try? input.compress(with: .gzip(configuration: .init(compressionLevel: 9))),
            compressed.readableBytes + 64 < body.readableBytes
        else { return nil }
        return compressed
    }

    private static func compressible(_ contentType: String) -> Bool {
        contentType.hasPrefix("text/") || contentType.contains("javascript") || contentType.contains("json")
            || contentType.contains("svg")
    }

    static func contentType(of path: String) -> String {
        switch path.split(separator: ".").last ?? "" {
        case "html": "text/html; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "json": "application/json"
        case "webmanifest": "application/manifest+json"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "map": "application/json"
        default: "application/octet-stream"
        }
    }
}
