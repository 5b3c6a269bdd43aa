import EventLog
import Foundation
import Muster
import PushProviders

/// The contract's exit statuses: 0 ok, 1 runtime failure, 2 bad usage / invalid input, 3 conflict.
enum ExitStatus {
    static let ok: Int32 = 0
    static let failure: Int32 = 1
    static let invalidInput: Int32 = 2
    static let conflict: Int32 = 3

    /// The status of a failure the contract names, with the line stderr shows for it; nil for any other error.
    static func of(_ error: any Error) -> (status: Int32, message: String)? {
        switch error {
        case let failure as CommandFailure: (failure.status, failure.message)
        case let error as MusterError: (of(error), error.message)
        case let error as StoreError: (of(error), error.line)
        case let error as PushConfigurationError: (invalidInput, error.description)
        default: nil
        }
    }

    /// A rule of the domain refused: a conflict (3), bad input (2), or a quota reached (1).
    static func of(_ error: MusterError) -> Int32 {
        switch error.code {
        case .conflict: conflict
        case .userQuota, .namespaceQuota: failure
        default: invalidInput
        }
    }

    static func of(_ error: StoreError) -> Int32 {
        switch error.code {
        case .conflict, .idempotency: conflict
        case .invalidArgument, .notFound, .tooLarge, .notDataDirectory: invalidInput
        default: failure
        }
    }
}

extension StoreError {
    /// The store's message, then its remedy as the command that takes it.
    var line: String { remedy.map { "\(message); \($0.command)" } ?? message }
}

extension VerifyReport.Problem {
    /// The problem with its remedy as a command, in `message`, as `verify` prints it (and its `--json`).
    var withCommand: Self {
        var problem = self
        problem.message = remedy.map { "\(message); \($0.command)" } ?? message
        problem.remedy = nil
        return problem
    }
}

extension StoreError.Remedy {
    /// The command line's words for the step: the `muster` command that takes it.
    var command: String {
        switch self {
        case .verify: "run `muster verify`"
        case .verifyAndRestore: "run `muster verify` and restore from a backup"
        case .restoreBackup(let directory): "restore a backup with `muster restore BACKUP --data \(directory) --force`"
        case .startOverOrRestore(let directory):
            "delete data.mdb to start a new log, or restore a backup with `muster restore BACKUP --data \(directory) --force`"
        case .rebuild(let projection): "run `muster rebuild \(projection)`"
        case .migrate: "run `muster migrate`"
        case .useBackup: "is this a directory written by `muster backup`?"
        }
    }
}

/// A failure a command reports itself: one line for stderr and the exit status.
///
/// Throw it from `run`: the parser wraps what `validate` throws and exits 1 (its `errorDescription` keeps the line
/// readable even then).
struct CommandFailure: LocalizedError {
    var message: String
    var status: Int32

    var errorDescription: String? { message }

    /// Bad usage or invalid input (exit 2).
    static func invalid(_ message: String) -> CommandFailure {
        CommandFailure(message: message, status: ExitStatus.invalidInput)
    }
    /// A runtime failure (exit 1).
    static func failed(_ message: String) -> CommandFailure {
        CommandFailure(message: message, status: ExitStatus.failure)
    }
}
