import CNATS

extension NATSConnection {
    /// The message at `sequence` in the stream, read from the stream's leader, or nil when there is none (never
    /// stored, or deleted). Throws `notFound` when there is no such stream.
    public func message(stream: String, sequence: UInt64) async throws -> StreamMessage? {
        guard sequence > 0 else { return nil }
        return try await blocking { connection in
            var message: OpaquePointer?
            defer { natsMsg_Destroy(message) }
            var code = jsErrCode(0)
            let status = js_GetMsg(&message, connection.jetStream, stream, sequence, nil, &code)
            // libnats reports "no message" (JetStream 10037) as NATS_NOT_FOUND; "no stream" (10059) too.
            if status == NATS_NOT_FOUND && code == JSNoMessageFoundErr { return nil }
            try connection.check(
                status, "reading message \(sequence) of the stream \(stream)", call: "js_GetMsg", jetStreamCode: code)
            return StreamMessage(message!, sequence: natsMsg_GetSequence(message))
        }
    }
}

extension NATSConnection {
    /// The last message on `subject` in the stream, read from the stream's leader, or nil when there is none. Throws
    /// `notFound` when there is no such stream.
    public func lastMessage(stream: String, subject: String) async throws -> StreamMessage? {
        try await blocking { connection in
            var message: OpaquePointer?
            defer { natsMsg_Destroy(message) }
            var code = jsErrCode(0)
            let status = js_GetLastMsg(&message, connection.jetStream, stream, subject, nil, &code)
            if status == NATS_NOT_FOUND && code == JSNoMessageFoundErr { return nil }
            try connection.check(
                status, "reading the last message on \(subject) of the stream \(stream)", call: "js_GetLastMsg",
                jetStreamCode: code)
            return StreamMessage(message!, sequence: natsMsg_GetSequence(message))
        }
    }
}
