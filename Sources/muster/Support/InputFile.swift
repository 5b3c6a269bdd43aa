import Foundation

/// A file a command reads, checked before anything is opened or written.
enum InputFile {
    /// Refuses a path that names a directory (reading it would fail with the system's "Is a directory"), naming the
    /// path and what to give instead.
    static func refuseDirectory(_ path: String, expected: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw CommandFailure.invalid("\(path) is a directory; give \(expected)")
        }
    }
}
