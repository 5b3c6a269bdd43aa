import Foundation
import Testing

@testable import MusterHTTP

/// The web app compiled into the binary is the one in `Sources/WebApp/app/`, whole, and small enough for a phone's
/// first visit.
@Suite struct WebAppFilesTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/WebApp/app")

    @Test func theBinaryHoldsExactlyTheFilesOfTheAppDirectory() throws {
        let embedded = WebAppFiles.embeddedBytes()
        var onDisk: [String: [UInt8]] = [:]
        let root = Self.directory.path
        for case let path as String in FileManager.default.enumerator(atPath: root)! {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory),
                !isDirectory.boolValue, !path.split(separator: "/").contains(where: { $0.hasPrefix(".") })
            else { continue }
            onDisk[path] = Array(try Data(contentsOf: Self.directory.appendingPathComponent(path)))
        }
        #expect(onDisk.count > 5, "no app files found at \(root)")
        #expect(
            Set(embedded.keys) == Set(onDisk.keys),
            "run Tools/web-assets: assets.c lists \(embedded.keys.sorted()), app/ has \(onDisk.keys.sorted())")
        for (path, bytes) in onDisk where embedded[path] != nil {
            #expect(embedded[path] == bytes, "\(path) differs from the copy built in: rebuild")
        }
    }

    @Test func theFirstVisitDownloadsLessThan150KilobytesCompressed() {
        let files = WebAppFiles.embedded.files
        let compressed = files.values.reduce(0) { $0 + ($1.gzipped ?? $1.body).readableBytes }
        let plain = files.values.reduce(0) { $0 + $1.body.readableBytes }
        #expect(compressed < 150 * 1024, "\(compressed) bytes compressed (\(plain) plain) in \(files.count) files")
        #expect(compressed < plain, "gzip makes the app smaller")
    }

    @Test func theShellNamesItsVersionAndHasNoInlineScript() throws {
        let files = WebAppFiles.embedded
        let shell = String(buffer: try #require(files.files["index.html"]).body)
        #expect(shell.contains("/app/\(files.version)/js/app.js"))
        #expect(!shell.contains("{{version}}"))
        #expect(shell.ranges(of: "<script").count == shell.ranges(of: "<script type=\"module\" src=").count)
        #expect(!shell.contains(" style=") && !shell.contains(" onclick="))
        let worker = String(buffer: try #require(files.files["sw.js"]).body)
        #expect(worker.contains("\"/app/\(files.version)/css/app.css\""))
    }
}
