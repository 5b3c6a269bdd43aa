import EventLog

/// The contract's exit statuses: 0 ok, 1 runtime failure, 2 bad usage / invalid input, 3 conflict.
enum ExitStatus {
    static let ok: Int32 = 0
    static let failure: Int32 = 1
    static let invalidInput: Int32 = 2
    static let conflict: Int32 = 3

    static func of(_ error: StoreError) -> Int32 {
        switch error.code {
        case .conflict, .idempotency: conflict
        case .invalidArgument, .notFound, .tooLarge, .notDataDirectory: invalidInput
        default: failure
        }
    }
}

/// A failure a command reports itself: one line for stderr and the exit status.
struct CommandFailure: Error {
    var message: String
    var status: Int32

    /// Bad usage or invalid input (exit 2).
    static func invalid(_ message: String) -> CommandFailure {
        CommandFailure(message: message, status: ExitStatus.invalidInput)
    }
    /// A runtime failure (exit 1).
    static func failed(_ message: String) -> CommandFailure {
        CommandFailure(message: message, status: ExitStatus.failure)
    }
}
