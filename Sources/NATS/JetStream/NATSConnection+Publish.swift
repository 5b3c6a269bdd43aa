import CNATS
import Foundation

extension NATSConnection {
    /// Publishes `data` to `subject` and returns when the stream that captures the subject acknowledged it: stored (in
    /// a replicated stream, on a majority of its servers), or recognised as a duplicate.
    ///
    /// - Parameters:
    ///   - messageID: the message's ID for de-duplication: a publish with an ID the stream saw within its duplicate
    ///     window is acknowledged with `duplicate` and the first one's sequence, and not stored again.
    ///   - expectedLastSequence: store only if the stream's last sequence is this one (0: the stream is empty), so
    ///     that two writers cannot both append at the same position. Otherwise throws `wrongLastSequence`
    ///     (JetStream error 10071, whose message names the stream's actual last sequence) and stores nothing.
    ///   - expectedLastSubjectSequence: store only if the last message on `subject` has this sequence (0: there is
    ///     none); `wrongLastSequence` otherwise.
    ///   - headers: header names and values to store with the message (names are case-sensitive). JetStream stores
    ///     its own headers alongside: `Nats-Msg-Id`, `Nats-Expected-Last-Sequence`…
    ///   - timeout: how long to wait for the acknowledgement; the configuration's `requestTimeout` by default.
    ///
    /// Throws `unavailable` when no acknowledgement came in time (no stream leader, no quorum, a server that hangs),
    /// when nothing captures the subject (JetStream down, or no such stream: "no responders"), or when the connection
    /// is lost or down: the message may or may not have been stored; publish it again with the same `messageID` and
    /// `expectedLastSequence` to find out. Other refusals throw `failed` with JetStream's code.
    public func publish(
        subject: String, data: [UInt8], messageID: String? = nil, expectedLastSequence: UInt64? = nil,
        expectedLastSubjectSequence: UInt64? = nil, headers: [String: String] = [:], timeout: Duration? = nil
    ) async throws -> PublishAcknowledgement {
        try await blocking { connection in
            let headers = Self.headers(headers, expectedLastSequence: expectedLastSequence)
            let message = try connection.makeMessage(subject: subject, data: data, headers: headers)
            defer { natsMsg_Destroy(message) }
            var options = jsPubOptions()
            jsPubOptions_Init(&options)
            options.MaxWait = timeout?.milliseconds ?? 0
            if let expectedLastSubjectSequence {
                if expectedLastSubjectSequence == 0 {
                    options.ExpectNoMessage = true
                } else {
                    options.ExpectLastSubjectSeq = expectedLastSubjectSequence
                }
            }
            return try (messageID ?? "").withCString { id in
                if messageID != nil { options.MsgId = id }
                var acknowledgement: UnsafeMutablePointer<jsPubAck>?
                defer { jsPubAck_Destroy(acknowledgement) }
                var code = jsErrCode(0)
                let status = js_PublishMsg(&acknowledgement, connection.jetStream, message, &options, &code)
                try connection.check(status, "publishing to \(subject)", call: "js_PublishMsg", jetStreamCode: code)
                let ack = acknowledgement!.pointee
                return PublishAcknowledgement(
                    stream: ack.Stream.map { String(cString: $0) } ?? "", sequence: ack.Sequence,
                    duplicate: ack.Duplicate)
            }
        }
    }

    /// `headers` with the expected last sequence written in, as every publish sends it.
    static func headers(_ headers: [String: String], expectedLastSequence: UInt64?) -> [String: String] {
        guard let expectedLastSequence else { return headers }
        var headers = headers
        // Set here rather than through jsPubOptions.ExpectLastSeq, which libnats 3.4.1 sends only when it is above 0:
        // "expect an empty stream" would be lost. nats-server 2.9 checks the header when present.
        headers["Nats-Expected-Last-Sequence"] = String(expectedLastSequence)
        return headers
    }

    /// A new `natsMsg` (the caller destroys it) with `subject`, `data` and `headers`.
    func makeMessage(subject: String, data: [UInt8], headers: [String: String]) throws -> OpaquePointer {
        var message: OpaquePointer?
        let status = data.withUnsafeBytes { bytes in
            natsMsg_Create(
                &message, subject, nil, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count))
        }
        try check(status, "making the message for \(subject)", call: "natsMsg_Create")
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            let status = natsMsgHeader_Set(message, name, value)
            if status != NATS_OK {
                let error = NATSError(
                    "setting the header \(name) of the message for \(subject)", call: "natsMsgHeader_Set",
                    status: status)
                natsMsg_Destroy(message)
                throw error
            }
        }
        return message!
    }
}

/// A stream's acknowledgement of a publish.
public struct PublishAcknowledgement: Sendable, Hashable {
    /// The stream that stored the message.
    public let stream: String
    /// The message's sequence in the stream (for a duplicate: the sequence of the message stored first).
    public let sequence: UInt64
    /// True when the stream had seen the message ID within its duplicate window and stored nothing.
    public let duplicate: Bool

    /// An acknowledgement (for tests and fakes of the replication).
    public init(stream: String, sequence: UInt64, duplicate: Bool) {
        self.stream = stream
        self.sequence = sequence
        self.duplicate = duplicate
    }
}
