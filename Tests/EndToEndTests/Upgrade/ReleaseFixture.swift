import EventLogTesting
import Foundation

/// A previous release's data directory from `Tests/Fixtures/release-<version>/` (made by `Tools/release-fixture`),
/// unpacked into a temporary directory, with the answers that release's binary gave on it.
struct ReleaseFixture {
    /// The temporary directory holding the unpacked `data/`; `remove()` deletes it.
    let work: TemporaryDirectory
    /// The fixture's folder in the source tree: `data.tar.gz`, `answers/`, `README.md`.
    let source: URL

    /// The unpacked data directory.
    var data: URL { work.url.appendingPathComponent("data") }
    /// `--data` and the unpacked directory, for `muster` arguments.
    var dataArguments: [String] { ["--data", data.path] }

    /// Unpacks release `version`'s fixture into a new temporary directory.
    init(_ version: String) async throws {
        source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/release-\(version)")
        let archive = source.appendingPathComponent("data.tar.gz")
        guard FileManager.default.fileExists(atPath: archive.path) else {
            throw MusterProcess.Unexpected("no \(archive.path); make it with Tools/release-fixture")
        }
        work = try TemporaryDirectory("release-\(version)")
        do {
            try await Self.untar(archive, into: work.url)
        } catch {
            work.remove()
            throw error
        }
    }

    /// The text of `answers/<name>`, as the release's binary printed it.
    func answer(_ name: String) throws -> String {
        try String(contentsOf: source.appendingPathComponent("answers/\(name)"), encoding: .utf8)
    }

    func remove() { work.remove() }

    /// Runs `tar -xzf archive -C directory` to its end (posix_spawn: Foundation's `Process.run` has crashed the
    /// test process in full runs).
    private static func untar(_ archive: URL, into directory: URL) async throws {
        let status = await (try ChildProcess("/usr/bin/tar", ["-xzf", archive.path, "-C", directory.path]))
            .waitForExit()
        guard status == 0 else {
            throw MusterProcess.Unexpected("tar -xzf \(archive.path) exited with wait status \(status)")
        }
    }
}
