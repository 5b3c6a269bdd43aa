import Foundation

/// Finds executables this package built (`muster`, `muster-loadgen`) next to the running test binary.
public enum BuiltProduct {
    /// The path of an executable product in the build's bin directory.
    public static func url(_ name: String) throws -> URL {
        let executable = URL(
            fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments[0])
        var directory = executable.deletingLastPathComponent()
        // The test binary sits in the bin directory, or inside an .xctest bundle within it.
        for _ in 0..<5 {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        throw BuiltProductMissing(name: name, searchedFrom: executable.path)
    }

    struct BuiltProductMissing: Error, CustomStringConvertible {
        var name: String
        var searchedFrom: String
        var description: String {
            "\(name) was not built next to \(searchedFrom); run `swift build --build-tests` first"
        }
    }
}
