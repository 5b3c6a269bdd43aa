import CLMDB

/// A scenario could not run: a C call failed, a peer misbehaved, a tool printed something unexpected.
struct BenchError: Error, CustomStringConvertible {
    private enum Code: String {
        case lmdb, zstd, command, parse
    }

    private let code: Code
    private let message: String

    private init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    static func lmdb(_ rc: Int32, _ call: String) -> BenchError {
        BenchError(.lmdb, "\(call) failed: \(String(cString: mdb_strerror(rc)))")
    }

    static func zstd(_ message: String) -> BenchError { BenchError(.zstd, message) }

    static func command(_ message: String) -> BenchError { BenchError(.command, message) }

    static func parse(_ message: String) -> BenchError { BenchError(.parse, message) }

    var description: String { "\(code.rawValue): \(message)" }
}
