import Foundation

/// Finds executables this package built (`muster`, `muster-loadgen`) for tests that run them as a
/// user would.
///
/// Looked for in `$MUSTER_BIN_DIR` when set; otherwise next to the running test binary (SwiftPM puts
/// executables and the test runner in the same `.build/<triple>/debug` directory; on Linux the runner
/// is `/proc/self/exe`, on macOS an `.xctest` bundle) and in each parent's `debug/`.
public enum BuiltProduct {
    /// The path of an executable product in the build's bin directory.
    public static func url(_ name: String) throws -> URL {
        let fm = FileManager.default
        if let directory = ProcessInfo.processInfo.environment["MUSTER_BIN_DIR"] {
            return URL(fileURLWithPath: directory).appendingPathComponent(name)
        }
        var starts: [URL] = []
        if let exe = try? fm.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            starts.append(URL(fileURLWithPath: exe).deletingLastPathComponent())
        }
        starts.append(
            URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent())
        starts += Bundle.allBundles.map(\.bundleURL).filter { $0.pathExtension == "xctest" }
            .map { $0.deletingLastPathComponent() }
        for start in starts {
            var directory = start.standardizedFileURL
            for _ in 0..<6 {
                for candidate in [
                    directory.appendingPathComponent(name), directory.appendingPathComponent("debug/\(name)"),
                ] {
                    var isDirectory: ObjCBool = false
                    if fm.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                        fm.isExecutableFile(atPath: candidate.path)
                    {
                        return candidate
                    }
                }
                directory.deleteLastPathComponent()
            }
        }
        throw Missing(name: name, searched: starts.map(\.path))
    }

    struct Missing: Error, CustomStringConvertible {
        var name: String
        var searched: [String]
        var description: String {
            "\(name) was not built near \(searched.joined(separator: ", ")); run `swift build --build-tests` or set MUSTER_BIN_DIR"
        }
    }
}
