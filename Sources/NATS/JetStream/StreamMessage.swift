import CNATS
import Foundation

/// A message stored in a stream, at its sequence.
public struct StreamMessage: Sendable, Hashable {
    /// Its position in the stream.
    public let sequence: UInt64
    /// The subject it was published to.
    public let subject: String
    /// Its headers, the publisher's and JetStream's (`Nats-Msg-Id`…); of a name given several values, the first.
    public let headers: [String: String]
    /// Its payload.
    public let data: [UInt8]

    /// A message (for tests and fakes of the replication).
    public init(sequence: UInt64, subject: String, headers: [String: String], data: [UInt8]) {
        self.sequence = sequence
        self.subject = subject
        self.headers = headers
        self.data = data
    }

    /// Copies what `message` holds; `message` stays the caller's to destroy. libnats' headers are not thread-safe:
    /// only the thread that owns `message` may call this.
    init(_ message: OpaquePointer, sequence: UInt64) {
        self.sequence = sequence
        subject = natsMsg_GetSubject(message).map { String(cString: $0) } ?? ""
        let length = Int(natsMsg_GetDataLength(message))
        if length > 0, let bytes = natsMsg_GetData(message) {
            data = bytes.withMemoryRebound(to: UInt8.self, capacity: length) {
                Array(UnsafeBufferPointer(start: $0, count: length))
            }
        } else {
            data = []
        }
        headers = Self.headers(of: message)
    }

    private static func headers(of message: OpaquePointer) -> [String: String] {
        var names: UnsafeMutablePointer<UnsafePointer<CChar>?>?
        var count: Int32 = 0
        // NATS_NOT_FOUND: no headers.
        guard natsMsgHeader_Keys(message, &names, &count) == NATS_OK, let names else { return [:] }
        defer { free(names) }
        var headers: [String: String] = [:]
        for index in 0..<Int(count) {
            guard let name = names[index] else { continue }
            var value: UnsafePointer<CChar>?
            if natsMsgHeader_Get(message, name, &value) == NATS_OK {
                headers[String(cString: name)] = value.map { String(cString: $0) } ?? ""
            }
        }
        return headers
    }
}
