import ArgumentParser
import EventLog
import Foundation
import Muster
import MusterWire

/// `muster append`: appends one event with a JSON body to a stream.
struct Append: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Append one event to a stream.",
        discussion: """
            Prints {"position":P,"stream":S,"version":V,"id":UUID}. Appending again with the same --id \
            returns the original position and writes nothing. Exit status 3 when the stream is not at \
            the expected version.
            """)

    @OptionGroup var data: DataOptions
    @Flag(help: "Accepted as by every verb; the output is JSON already.") var json = false
    @Option(help: "Stream to append to.") var stream: String
    @Option(help: "Event type, e.g. OrderPlaced.") var type: String
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "What the stream must be at: a version number, any, no-stream or stream-exists.",
            valueName: "N|any|no-stream|stream-exists"))
    var expectedVersion: String = "any"
    @Option(help: "Event id, for idempotent retries (default: a new one).") var id: String?
    @Option(help: "Namespace of the stream.") var namespace: String = Names.defaultNamespace
    @Option(help: "Who caused the event.") var actor: String = "system"
    @Argument(
        help: ArgumentHelp("The body: a JSON object or array, or - to read it from stdin.", valueName: "BODY_JSON|-"))
    var body: String

    func validate() throws {
        guard ExpectedVersion(argument: expectedVersion) != nil else {
            throw ValidationError(
                "--expected-version must be a number, any, no-stream or stream-exists, not \(String(reflecting: expectedVersion))"
            )
        }
        if let id, UUID(uuidString: id) == nil {
            throw ValidationError("--id must be a UUID, not \(String(reflecting: id))")
        }
    }

    func run() async throws {
        let expected = ExpectedVersion(argument: expectedVersion)!
        let eventId = id.flatMap(UUID.init(uuidString:)) ?? EventID.make()
        let text = body == "-" ? Array(FileHandle.standardInput.readDataToEndOfFile()) : Array(body.utf8)
        do {
            _ = try JSONScanner.scan(text)
        } catch {
            let source = body == "-" ? "stdin" : "BODY_JSON"
            throw CommandFailure.invalid("the body (\(source)) is not valid JSON: \(error)")
        }
        // Checked before opening, so a mistyped command does not leave an empty data directory behind.
        try Names.validate(namespace, as: "namespace")
        try Names.validate(stream, as: "stream name")
        try Names.validate(type, as: "event type")
        if let refusal = EventCatalogue.refusal(ofType: type) { throw CommandFailure.invalid("--type \(refusal)") }
        try Names.validate(actor, as: "actor")
        let event = NewEvent(
            id: eventId, type: type, body: EventBody(format: .json, bytes: Self.trimmed(text)), actor: actor)
        let request = AppendRequest(namespace: namespace, stream: stream, expectedVersion: expected, events: [event])
        let result = try await data.withLog(creating: true) { try await $0.append(request) }
        Output.line(
            "{\"position\":\(result.lastPosition),\"stream\":\(EventJSON.quoted(stream)),\"version\":\(result.version),"
                + "\"id\":\(EventJSON.quoted(eventId.uuidString))}")
    }

    /// The body without the whitespace around it (a trailing newline from `echo` or a file).
    static func trimmed(_ bytes: [UInt8]) -> [UInt8] {
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return [] }
        return Array(bytes[first...last])
    }
}
