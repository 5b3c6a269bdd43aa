import ArgumentParser
import EventLog
import Foundation
import Muster
import MusterWire

/// `muster import`: appends events from JSON lines in large batches, one commit per batch.
struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Append events from a file of JSON lines (or stdin).",
        discussion: """
            Each line: {"stream","type","body","id"?,"namespace"?,"expectedVersion"?,"actor"?, \
            "schemaVersion"?,"causationId"?,"correlationId"?}; the output of `muster events --json` is \
            accepted as it is (other keys are ignored). Lines are committed in batches; a bad line stops \
            the import with its number, keeping the batches committed before it and nothing of its own.
            """)

    @OptionGroup var data: DataOptions
    @Argument(help: ArgumentHelp("JSON lines to import, or - for stdin.", valueName: "FILE|-")) var file: String
    @Option(help: "Lines per commit.") var batchSize = 5_000
    @Flag(help: "Print the result as JSON.") var json = false

    func validate() throws {
        guard batchSize > 0 else { throw ValidationError("--batch-size must be positive") }
    }

    func run() async throws {
        let input: FileHandle
        var total: UInt64?
        if file == "-" {
            input = FileHandle.standardInput
        } else {
            guard let handle = FileHandle(forReadingAtPath: file) else {
                throw CommandFailure.invalid("cannot read \(file): no such file or not readable")
            }
            input = handle
            total = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.uint64Value
        }
        let log = try data.open(mustExist: false)
        defer { log.close() }
        let progress = Progress("import")
        var lines = LineReader(input)
        var batch: [ImportLine] = []
        var summary = Summary()
        var lastReport = Date.distantPast

        func commit() async throws {
            guard !batch.isEmpty else { return }
            summary.add(try await Self.commit(batch, to: log))
            batch.removeAll(keepingCapacity: true)
            if let total {
                progress.update(lines.bytesRead, of: total, unit: "bytes")
            } else if Date().timeIntervalSince(lastReport) >= 1 {
                lastReport = Date()
                progress.finish("\(summary.imported) events")
            }
        }

        while let (number, line) = try lines.next() {
            guard line.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { continue }
            batch.append(try ImportLine(line, number: number))
            if batch.count >= batchSize { try await commit() }
        }
        try await commit()
        if let total {
            progress.update(total, of: total, unit: "bytes")
        } else {
            progress.finish("\(summary.imported) events")
        }
        if summary.duplicates > 0 {
            FileHandle.standardError.write(
                Data("import: \(summary.duplicates) events were stored already (same ids) and were skipped\n".utf8))
        }
        if json {
            Output.line("{\"imported\":\(summary.imported),\"lastPosition\":\(summary.lastPosition)}")
        } else {
            Output.line("imported \(summary.imported) events; last position \(summary.lastPosition)")
        }
    }

    private struct Summary: Sendable {
        var imported = 0
        var duplicates = 0
        var lastPosition: UInt64 = 0

        mutating func add(_ other: Summary) {
            imported += other.imported
            duplicates += other.duplicates
            lastPosition = max(lastPosition, other.lastPosition)
        }
    }

    /// An append that failed inside a batch, with the line it came from.
    private struct LineFailure: Error {
        var line: Int
        /// Lines appended together with `line` (same stream, consecutive).
        var lines: Int
        var error: StoreError
    }

    /// Appends one batch in one write transaction: one append per run of lines of the same stream
    /// (a line with an expected version starts a new one, so the check applies where it was written).
    private static func commit(_ batch: [ImportLine], to log: EventLog) async throws -> Summary {
        var groups: [(line: Int, request: AppendRequest)] = []
        for item in batch {
            if let last = groups.last, item.expectedVersion == nil, last.request.namespace == item.namespace,
                last.request.stream == item.stream
            {
                groups[groups.count - 1].request.events.append(item.event)
            } else {
                let request = AppendRequest(
                    namespace: item.namespace, stream: item.stream, expectedVersion: item.expectedVersion ?? .any,
                    events: [item.event])
                groups.append((item.number, request))
            }
        }
        let requests = groups
        do {
            return try await log.perform { scope in
                var summary = Summary()
                for (line, request) in requests {
                    do {
                        let result = try scope.append(request)
                        if result.wasDuplicate {
                            summary.duplicates += request.events.count
                        } else {
                            summary.imported += request.events.count
                        }
                        summary.lastPosition = max(summary.lastPosition, result.lastPosition)
                    } catch let error as StoreError {
                        throw LineFailure(line: line, lines: request.events.count, error: error)
                    }
                }
                return summary
            }
        } catch let failure as LineFailure {
            // Lines of one stream are appended together, so a failure may belong to any of them.
            let together =
                failure.lines > 1
                ? " (first of lines \(failure.line)–\(failure.line + failure.lines - 1), appended together)" : ""
            throw CommandFailure(
                message: "line \(failure.line)\(together): \(failure.error.line)",
                status: ExitStatus.of(failure.error))
        }
    }
}

/// One line of an import, validated: everything an append needs.
struct ImportLine: Sendable {
    var number: Int
    var namespace: String
    var stream: String
    var expectedVersion: ExpectedVersion?
    var event: NewEvent

    /// Parses and validates a line; throws `muster: line N: …` (exit 2) naming the problem.
    init(_ bytes: [UInt8], number: Int) throws {
        func fail(_ reason: String) -> CommandFailure { .invalid("line \(number): \(reason)") }
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
        func string(_ key: String) throws -> String? {
            guard let value = raw(key) else { return nil }
            guard value.first == UInt8(ascii: "\"") else { throw fail("\"\(key)\" must be a string") }
            let inner = value.dropFirst().dropLast()
            if !inner.contains(UInt8(ascii: "\\")) { return String(decoding: inner, as: UTF8.self) }
            guard let text = try? JSONSerialization.jsonObject(with: Data(value), options: .fragmentsAllowed) as? String
            else { throw fail("\"\(key)\" must be a string") }
            return text
        }
        func required(_ key: String) throws -> String {
            guard let value = try string(key) else { throw fail("missing \"\(key)\"") }
            return value
        }
        func uuid(_ key: String) throws -> UUID? {
            guard let text = try string(key) else { return nil }
            guard let id = UUID(uuidString: text) else {
                throw fail("\"\(key)\" must be a UUID, not \(EventJSON.quoted(text))")
            }
            return id
        }

        let stream = try required("stream")
        let type = try required("type")
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

/// Reads lines from a file handle in large chunks, counting bytes for progress.
struct LineReader {
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    private var number = 0
    /// Bytes handed out so far, newlines included.
    private(set) var bytesRead: UInt64 = 0

    init(_ handle: FileHandle) { self.handle = handle }

    /// The next line (1-based number, bytes without the newline and a trailing CR), or nil at the end.
    mutating func next() throws -> (Int, [UInt8])? {
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                var line = Array(buffer[start..<newline])
                if line.last == 0x0D { line.removeLast() }
                bytesRead += UInt64(newline + 1 - start)
                start = newline + 1
                number += 1
                return (number, line)
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                let line = Array(buffer[start...])
                bytesRead += UInt64(buffer.count - start)
                start = buffer.count
                number += 1
                return (number, line)
            }
            buffer.removeFirst(start)
            start = 0
            let chunk = try handle.read(upToCount: 1 << 20) ?? Data()
            if chunk.isEmpty { atEnd = true } else { buffer += chunk }
        }
    }
}
