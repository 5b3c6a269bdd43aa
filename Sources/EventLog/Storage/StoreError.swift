import CLMDB
import Foundation

/// An error from the event store, with the context an operator needs to act on it.
public struct StoreError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of failure this is; stable for programs, extensible without breaking callers.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String {
            case lmdb, diskFull, mapLimit, conflict, idempotency, invalidArgument, notFound, corrupt
            case newerFormat, olderFormat, projectionNotReady, cancelled, closed, io, tooLarge, notDataDirectory
        }
        private let kind: Kind
        private init(_ kind: Kind) { self.kind = kind }

        /// An LMDB call failed.
        public static let lmdb = Code(.lmdb)
        /// The disk holding the data directory is full; nothing from the failed commit was stored.
        public static let diskFull = Code(.diskFull)
        /// The data directory reached its configured maximum size.
        public static let mapLimit = Code(.mapLimit)
        /// The stream is not at the version the caller expected.
        public static let conflict = Code(.conflict)
        /// Some event ids of an append were stored before and some were not.
        public static let idempotency = Code(.idempotency)
        /// An argument (stream name, namespace, type, body …) is not acceptable.
        public static let invalidArgument = Code(.invalidArgument)
        /// Something asked for does not exist.
        public static let notFound = Code(.notFound)
        /// Stored bytes do not match their checksum or cannot be decoded.
        public static let corrupt = Code(.corrupt)
        /// The data directory was written by a newer release of Muster.
        public static let newerFormat = Code(.newerFormat)
        /// The data directory needs migrating before this release can use it.
        public static let olderFormat = Code(.olderFormat)
        /// A projection is still being built and cannot answer yet.
        public static let projectionNotReady = Code(.projectionNotReady)
        /// The work was cancelled.
        public static let cancelled = Code(.cancelled)
        /// The store was closed.
        public static let closed = Code(.closed)
        /// A file operation failed.
        public static let io = Code(.io)
        /// An input is above a configured size limit; the message names the size and the limit.
        public static let tooLarge = Code(.tooLarge)
        /// The path is not a data directory at all (a file, or another program's LMDB database).
        public static let notDataDirectory = Code(.notDataDirectory)

        public var description: String { kind.rawValue }
    }

    /// What kind of failure this is.
    public var code: Code
    /// One line that says what went wrong and, where possible, what to do next.
    public var message: String
    /// For `.conflict`: the stream's actual version (0 when it does not exist).
    public var actualVersion: UInt64?
    /// For `.lmdb` and `.diskFull`: the return code of the failed call.
    public var returnCode: Int32?
    /// What to do next, where the store knows a step (verify, restore a backup, rebuild, migrate).
    public var remedy: Remedy?

    public init(
        _ code: Code, _ message: String, actualVersion: UInt64? = nil, returnCode: Int32? = nil, remedy: Remedy? = nil
    ) {
        self.code = code
        self.message = message
        self.actualVersion = actualVersion
        self.returnCode = returnCode
        self.remedy = remedy
    }

    /// True when the map ran out of room: grow it and run the transaction again.
    var isMapFull: Bool { returnCode == MDB_MAP_FULL }

    /// True when one transaction dirtied more pages than LMDB can track: split the work.
    var isTransactionFull: Bool { returnCode == MDB_TXN_FULL }

    /// True when LMDB found pages it cannot use: the data file is damaged.
    var isDamage: Bool {
        guard let rc = returnCode else { return false }
        return rc == MDB_CORRUPTED || rc == MDB_PAGE_NOTFOUND || rc == MDB_INVALID
    }

    /// True when the whole write transaction is unusable, not just one job's part of it.
    var endsTransaction: Bool {
        guard let rc = returnCode else { return false }
        return rc == MDB_MAP_FULL || rc == MDB_TXN_FULL || rc == MDB_PANIC || rc == MDB_BAD_TXN || rc == ENOSPC
            || rc == EIO || rc == ENOMEM
    }

    /// The message, then the remedy in plain words.
    public var description: String { remedy.map { "\(message); \($0)" } ?? message }

    /// Wraps an LMDB return code, naming the call that failed.
    static func lmdb(_ rc: Int32, _ call: String) -> StoreError {
        if rc == ENOSPC {
            return StoreError(
                .diskFull,
                "\(call): the disk holding the data directory is full (\(errorText(rc))); free space and retry — nothing from this commit was stored",
                returnCode: rc)
        }
        return StoreError(.lmdb, "\(call) failed: \(errorText(rc)) (\(rc))", returnCode: rc)
    }

    static func errorText(_ rc: Int32) -> String {
        String(cString: mdb_strerror(rc))
    }
}

/// Throws a `StoreError` naming `call` when an LMDB function returned non-zero.
@inline(__always)
func check(_ rc: Int32, _ call: @autoclosure () -> String) throws {
    if rc != 0 { throw StoreError.lmdb(rc, call()) }
}
