import EventLog
import Foundation
import MusterWire

/// One line of `muster import` (JSON lines), validated: everything an append needs.
public struct ImportLine: Sendable {
    /// The line's 1-based number in the file.
    public var number: Int
    /// The line's `namespace`, the default one when it has none.
    public var namespace: String
    /// The line's `stream`.
    public var stream: String
    /// The line's `expectedVersion`; nil when it has none.
    public var expectedVersion: ExpectedVersion?
    /// The event to append: the line's `type`, `body`, `id` (a new one when absent) and the rest.
    public var event: NewEvent

    /// Why a line was refused: its number and the problem, read as `line N: reason`.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// The line's 1-based number.
        public var line: Int
        /// What is wrong with it, naming the member.
        public var reason: String
        /// `line N: reason`.
        public var description: String { "line \(line): \(reason)" }
    }

    /// Parses and validates a line; throws a `Failure` naming the line and the problem.
    public init(_ bytes: [UInt8], number: Int) throws(Failure) {
        func fail(_ reason: String) -> Failure { Failure(line: number, reason: reason) }
        let document: JSONScanner.Document
        do {
            document = try JSONScanner.scan(bytes)
        } catch {
            throw fail("not valid JSON: column \(error.column): \(error.reason)")
        }
        guard document.isObject else { throw fail("expected a JSON object, found an array") }
        var fields: [String: Range<Int>] = [:]
        for member in document.members where fields[member.key] == nil { fields[member.key] = member.value }

        func raw(_ key: String) -> ArraySlice<UInt8>? {
            guard let range = fields[key] else { return nil }
            let value = bytes[range]
            return value.elementsEqual("null".utf8) ? nil : value
        }
        func string(_ key: String) throws(Failure) -> String? {
            guard let value = raw(key) else { return nil }
            guard value.first == UInt8(ascii: "\"") else { throw fail("\"\(key)\" must be a string") }
            let inner = value.dropFirst().dropLast()
            if !inner.contains(UInt8(ascii: "\\")) { return String(decoding: inner, as: UTF8.self) }
            guard let text = try? JSONSerialization.jsonObject(with: Data(value), options: .fragmentsAllowed) as? String
            else { throw fail("\"\(key)\" must be a string") }
            return text
        }
        func required(_ key: String) throws(Failure) -> String {
            guard let value = try string(key) else { throw fail("missing \"\(key)\"") }
            return value
        }
        func uuid(_ key: String) throws(Failure) -> UUID? {
            guard let text = try string(key) else { return nil }
            guard let id = UUID(uuidString: text) else {
                throw fail("\"\(key)\" must be a UUID, not \(EventJSON.quoted(text))")
            }
            return id
        }

        let stream = try required("stream")
        let type = try required("type")
        if let refusal = EventCatalogue.refusal(ofType: type) { throw fail("\"type\" \(refusal)") }
        guard let body = raw("body") else { throw fail("missing \"body\"") }
        guard body.first == UInt8(ascii: "{") || body.first == UInt8(ascii: "[") else {
            throw fail("\"body\" must be a JSON object or array")
        }
        let namespace = try string("namespace") ?? Names.defaultNamespace
        let actor = try string("actor") ?? "system"
        var schemaVersion: UInt16 = 1
        if let value = raw("schemaVersion") {
            guard let n = UInt16(String(decoding: value, as: UTF8.self)), n > 0 else {
                throw fail("\"schemaVersion\" must be a whole number from 1 to 65535")
            }
            schemaVersion = n
        }
        var expected: ExpectedVersion?
        if let value = raw("expectedVersion") {
            let text =
                value.first == UInt8(ascii: "\"")
                ? try string("expectedVersion") ?? "" : String(decoding: value, as: UTF8.self)
            guard let parsed = ExpectedVersion(argument: text) else {
                throw fail(
                    "\"expectedVersion\" must be a version number, \"any\", \"no-stream\" or \"stream-exists\", not \(text)"
                )
            }
            expected = parsed
        }
        do {
            try Names.validate(namespace, as: "namespace")
            try Names.validate(stream, as: "stream name")
            try Names.validate(type, as: "event type")
            try Names.validate(actor, as: "actor")
        } catch let error as StoreError {
            throw fail(error.message)
        } catch {
            throw fail("\(error)")
        }
        self.number = number
        self.namespace = namespace
        self.stream = stream
        self.expectedVersion = expected
        self.event = NewEvent(
            id: try uuid("id") ?? EventID.make(), type: type, schemaVersion: schemaVersion,
            body: EventBody(format: .json, bytes: Array(body)), actor: actor, causationId: try uuid("causationId"),
            correlationId: try uuid("correlationId"))
    }
}
