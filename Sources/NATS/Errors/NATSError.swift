import CNATS
import Foundation

/// An error of the NATS client: what failed, the libnats call and status, and JetStream's error code when the server
/// gave one. Never holds a password or token.
public struct NATSError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is; stable for programs, extensible without breaking callers.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String {
            case unavailable, wrongLastSequence, keyExists, wrongRevision, notFound, closed, invalidArgument
            case refused, failed
        }
        private let kind: Kind
        private init(_ kind: Kind) { self.kind = kind }

        /// No answer in time, nobody to answer, no connection now, or JetStream without a leader or quorum: the
        /// request may succeed later ("503, try later"). A publish that failed so may still have been stored.
        public static let unavailable = Code(.unavailable)
        /// The stream refused a publish because its last sequence (or the subject's) is not the expected one
        /// (JetStream error 10071); nothing was stored.
        public static let wrongLastSequence = Code(.wrongLastSequence)
        /// A key-value `create` found the key present; nothing was written.
        public static let keyExists = Code(.keyExists)
        /// A key-value `update` or `delete` found another revision than the one given; nothing was written.
        public static let wrongRevision = Code(.wrongRevision)
        /// The stream, bucket or message does not exist.
        public static let notFound = Code(.notFound)
        /// The connection, or the reader, was closed by its owner.
        public static let closed = Code(.closed)
        /// An argument or configuration value is not acceptable (a name, a subject, a URL, a timeout).
        public static let invalidArgument = Code(.invalidArgument)
        /// The server refused the connection's credentials or the permission for a subject.
        public static let refused = Code(.refused)
        /// Any other failure; `status`, `jetStreamCode` and the message say which.
        public static let failed = Code(.failed)

        /// The kind's name (`wrongLastSequence`…), for logs.
        public var description: String { kind.rawValue }
    }

    /// What kind of failure this is.
    public let code: Code
    /// The libnats function that failed (`js_PublishMsg`, `kvStore_Get`…), or "" when Swift code found the error.
    public let call: String
    /// The `natsStatus` libnats returned (0, `NATS_OK`, when Swift code found the error).
    public let status: Int
    /// `natsStatus_GetText` of `status`.
    public let statusText: String
    /// The JetStream API error code (10071 "wrong last sequence", 10059 "stream not found"…) when there was one.
    public let jetStreamCode: Int?
    /// One line: what failed, why, and the call.
    public let message: String
    /// For a batch publish (`publish(_:timeout:)`): how many of the batch's messages, from the first, were
    /// acknowledged before the one that failed (its index in the batch). Nil for every other call.
    public private(set) var acknowledgedBefore: Int?

    /// `message`.
    public var description: String { message }

    /// An error found by Swift code, not by a libnats call.
    init(_ code: Code, _ message: String) {
        self.code = code
        self.call = ""
        self.status = 0
        self.statusText = ""
        self.jetStreamCode = nil
        self.message = message
    }

    /// `cause` told as another kind: the same call, status and JetStream code, another message.
    init(_ code: Code, _ message: String, cause: NATSError) {
        self.code = code
        self.call = cause.call
        self.status = cause.status
        self.statusText = cause.statusText
        self.jetStreamCode = cause.jetStreamCode
        self.message = message
        self.acknowledgedBefore = cause.acknowledgedBefore
    }

    /// The error of a failed libnats call: `what` failed. Call it on the thread that made the call, right after it:
    /// libnats keeps the text of the last error per thread.
    ///
    /// - Parameters:
    ///   - jetStreamCode: the `jsErrCode` the call gave back (0: none).
    ///   - secrets: texts that must not appear in the message (a password, a token).
    init(
        _ what: String, call: String, status: natsStatus, jetStreamCode: jsErrCode = jsErrCode(0),
        secrets: [String] = []
    ) {
        let detail = Self.lastErrorText(of: status) ?? String(cString: natsStatus_GetText(status))
        self.init(what, call: call, status: status, jetStreamCode: jetStreamCode, detail: detail, secrets: secrets)
    }

    /// The error libnats handed to a callback (an asynchronous publish's acknowledgement): its status, JetStream code
    /// and `detail` come with it, not from the last error recorded on the thread.
    init(
        _ what: String, call: String, status: natsStatus, jetStreamCode: jsErrCode, detail: String,
        secrets: [String] = []
    ) {
        let jsCode = jetStreamCode.rawValue == 0 ? nil : Int(jetStreamCode.rawValue)
        let statusText = String(cString: natsStatus_GetText(status))
        var detail = detail
        for secret in secrets where !secret.isEmpty {
            detail = detail.replacingOccurrences(of: secret, with: "…")
        }
        self.code = Self.kind(of: status, jetStreamCode: jsCode)
        self.call = call
        self.status = Int(status.rawValue)
        self.statusText = statusText
        self.jetStreamCode = jsCode
        let reported = jsCode.map { ", JetStream error \($0)" } ?? ""
        self.message = "\(what) failed: \(detail) (\(call): \(statusText)\(reported))"
    }

    /// This error as the failure of a batch's message with `count` messages acknowledged before it.
    func acknowledged(before count: Int) -> NATSError {
        var error = self
        error.acknowledgedBefore = count
        return error
    }

    /// The text libnats recorded on this thread for the error `status`, without its source location
    /// (`(jsm.c:1033): `).
    ///
    /// libnats keeps the last error per thread and does not clear it when a later call fails without recording one
    /// (a "no responders" publish, a "not found"): a text recorded for another status belongs to an earlier call.
    private static func lastErrorText(of status: natsStatus) -> String? {
        var recorded = NATS_OK
        guard let text = nats_GetLastError(&recorded), recorded == status else { return nil }
        var detail = String(cString: text)
        if detail.hasPrefix("("), let end = detail.range(of: "): "),
            detail[detail.index(after: detail.startIndex)..<end.lowerBound].contains(".c:")
        {
            detail.removeSubrange(detail.startIndex..<end.upperBound)
        }
        return detail.isEmpty ? nil : detail
    }

    /// The kind of a libnats status and JetStream code.
    static func kind(of status: natsStatus, jetStreamCode: Int?) -> Code {
        switch jetStreamCode {
        case Int(JSStreamWrongLastSequenceErr.rawValue): return .wrongLastSequence
        case Int(JSStreamNotFoundErr.rawValue), Int(JSNoMessageFoundErr.rawValue), Int(JSConsumerNotFoundErr.rawValue):
            return .notFound
        // No meta leader, no stream leader, a stream without quorum; and what libnats reports for "no responders".
        case Int(JSClusterNotAvailErr.rawValue), Int(JSClusterNotLeaderErr.rawValue), Int(JSStreamOfflineErr.rawValue),
            Int(JSNotEnabledErr.rawValue), Int(JSClusterIncompleteErr.rawValue):
            return .unavailable
        default: break
        }
        switch status {
        case NATS_TIMEOUT, NATS_NO_RESPONDERS, NATS_CONNECTION_DISCONNECTED, NATS_NO_SERVER, NATS_NOT_YET_CONNECTED,
            NATS_STALE_CONNECTION, NATS_IO_ERROR:
            return .unavailable
        case NATS_CONNECTION_CLOSED, NATS_INVALID_SUBSCRIPTION: return .closed
        case NATS_NOT_FOUND: return .notFound
        case NATS_INVALID_ARG, NATS_INVALID_SUBJECT, NATS_ADDRESS_MISSING, NATS_INVALID_TIMEOUT: return .invalidArgument
        case NATS_CONNECTION_AUTH_FAILED, NATS_NOT_PERMITTED: return .refused
        default: return .failed
        }
    }
}

/// Throws the `NATSError` of `status` unless it is `NATS_OK`; on the calling thread, right after the call.
func check(
    _ status: natsStatus, _ what: @autoclosure () -> String, call: String, jetStreamCode: jsErrCode = jsErrCode(0),
    secrets: [String] = []
) throws {
    guard status != NATS_OK else { return }
    throw NATSError(what(), call: call, status: status, jetStreamCode: jetStreamCode, secrets: secrets)
}
