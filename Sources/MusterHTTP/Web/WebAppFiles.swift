import Crypto
import Foundation
import WebApp

/// The web app's files by path under `app/`, as compiled into the binary or, for working on the app, read from
/// a directory. `version` is a hash over all of them: files are served under `/app/<version>/` with long cache
/// lifetimes, and the shell (`index.html`, `sw.js`) names that version, so a new build is fetched at once.
struct WebAppFiles: Sendable {
    let files: [String: WebAppFile]
    let version: String

    /// The files compiled into the binary.
    static let embedded = WebAppFiles(raw: embeddedBytes())

    /// The files under `directory`, read now (`serve --web-directory`, for working on the app without rebuilding).
    static func reading(_ directory: URL) throws -> WebAppFiles {
        var raw: [String: [UInt8]] = [:]
        let root = directory.standardizedFileURL.path
        guard let walker = FileManager.default.enumerator(atPath: root) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: root])
        }
        for case let path as String in walker {
            var isDirectory: ObjCBool = false
            let full = root + "/" + path
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue
            else { continue }
            raw[path] = Array(try Data(contentsOf: URL(fileURLWithPath: full)))
        }
        return WebAppFiles(raw: raw)
    }

    /// The paths and bytes `assets.c` compiled in.
    static func embeddedBytes() -> [String: [UInt8]] {
        var count: UInt = 0
        guard let table = web_app_files(&count) else { return [:] }
        var raw: [String: [UInt8]] = [:]
        for index in 0..<Int(count) {
            let file = table[index]
            raw[String(cString: file.path)] = Array(UnsafeBufferPointer(start: file.bytes, count: Int(file.length)))
        }
        return raw
    }

    private init(raw: [String: [UInt8]]) {
        var hash = SHA256()
        for path in raw.keys.sorted() {
            hash.update(data: Array(path.utf8))
            hash.update(data: raw[path] ?? [])
        }
        let version = hash.finalize().prefix(8).map { String(format: "%02x", $0) }.joined()
        var files: [String: WebAppFile] = [:]
        for (path, bytes) in raw {
            files[path] = WebAppFile(path: path, bytes: Self.naming(version, in: bytes, of: path, all: raw.keys))
        }
        self.files = files
        self.version = version
    }

    /// The shell's placeholders filled in: `{{version}}` with the version, and in the service worker `{{files}}`
    /// with the JSON list of every versioned file (what it keeps for opening offline).
    private static func naming(
        _ version: String, in bytes: [UInt8], of path: String, all paths: Dictionary<String, [UInt8]>.Keys
    ) -> [UInt8] {
        guard path == "index.html" || path == "sw.js" else { return bytes }
        var text = String(decoding: bytes, as: UTF8.self).replacing("{{version}}", with: version)
        if path == "sw.js" {
            let list = paths.filter { !["index.html", "sw.js"].contains($0) }.sorted()
                .map { "\"/app/\(version)/\($0)\"" }.joined(separator: ", ")
            text = text.replacing("{{files}}", with: "[" + list + "]")
        }
        return Array(text.utf8)
    }
}
