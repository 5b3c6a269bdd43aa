import EventLogTesting
import Foundation
import Testing

/// The store's CLI verbs, run as a user runs them: the built binary, stdin/stdout and exit statuses.
@Suite(.serialized) struct CLITests {
    let directory: TemporaryDirectory
    var data: [String] { ["--data", directory.url.appendingPathComponent("data").path] }

    init() throws { directory = try TemporaryDirectory("muster-cli") }

    private func muster(_ arguments: String..., stdin: String = "") async throws -> MusterProcess.Outcome {
        try await MusterProcess.run(Array(arguments) + data, stdin: stdin)
    }

    private func append(_ stream: String, _ type: String, _ body: String, _ extra: String...) async throws
        -> [String: Any]
    {
        let outcome = try await MusterProcess.run(
            ["append", "--stream", stream, "--type", type] + extra + data + [body])
        #expect(outcome.status == 0, "\(outcome)")
        return try outcome.json()
    }

    private func head() async throws -> Int {
        let status = try await muster("status", "--json")
        #expect(status.status == 0, "\(status)")
        return try status.json()["head"] as? Int ?? -1
    }

    /// Whether the data directory exists: a command refused before it stored anything leaves none behind.
    private var dataDirectoryExists: Bool {
        FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("data").path)
    }

    private func positions(_ arguments: String...) async throws -> [Int] {
        let outcome = try await MusterProcess.run(["events", "--json"] + arguments + data)
        #expect(outcome.status == 0, "\(outcome)")
        return try outcome.jsonLines().map { $0["position"] as? Int ?? -1 }
    }

    // MARK: append and events

    @Test func appendedEventsComeBackAsJSONLinesWithTheContractsKeys() async throws {
        defer { directory.remove() }
        let first = try await append(
            "orders-1", "OrderPlaced", #"{"total": 12.5, "items": ["a", "b"]}"#, "--actor", "ann")
        #expect(first["position"] as? Int == 1)
        #expect(first["stream"] as? String == "orders-1")
        #expect(first["version"] as? Int == 1)
        #expect(Set(first.keys) == ["position", "stream", "version", "id"])
        let second = try await MusterProcess.run(
            ["append", "--stream", "orders-1", "--type", "OrderPaid", "--namespace", "shop"] + data + ["-"],
            stdin: "[1,\n 2]\n")
        #expect(second.status == 0, "\(second)")

        let events = try await muster("events", "--json")
        #expect(events.status == 0, "\(events)")
        let lines = try events.jsonLines()
        #expect(lines.count == 2)
        let keys: Set = [
            "position", "id", "stream", "version", "type", "schemaVersion", "recordedAt", "namespace", "actor",
            "causationId", "correlationId", "body",
        ]
        #expect(lines.allSatisfy { Set($0.keys) == keys })
        let event = try #require(lines.first)
        #expect(event["id"] as? String == first["id"] as? String)
        #expect(event["type"] as? String == "OrderPlaced")
        #expect(event["actor"] as? String == "ann")
        #expect(event["namespace"] as? String == "default")
        #expect(event["schemaVersion"] as? Int == 1)
        #expect(event["causationId"] is NSNull)
        #expect(event["correlationId"] is NSNull)
        let body = try #require(event["body"] as? [String: Any], "body is embedded as JSON, not a string")
        #expect(body["total"] as? Double == 12.5)
        #expect(body["items"] as? [String] == ["a", "b"])
        let recordedAt = try #require(event["recordedAt"] as? String)
        #expect(recordedAt.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z/) != nil, "\(recordedAt)")
        #expect(lines[1]["namespace"] as? String == "shop")
        #expect(lines[1]["body"] as? [Int] == [1, 2])
        #expect(lines[1]["version"] as? Int == 1, "a stream of another namespace is another stream")
    }

    @Test func theTableShowsEachEventOnOneAlignedLine() async throws {
        defer { directory.remove() }
        _ = try await append("s", "Noted", #"{"text": "\#(String(repeating: "x", count: 100))"}"#)
        let table = try await muster("events")
        #expect(table.status == 0, "\(table)")
        #expect(table.lines.count == 2)
        #expect(table.lines[0].hasPrefix("POSITION"))
        #expect(table.lines[1].contains("Noted"))
        #expect(table.lines[1].hasSuffix("…"), "long bodies are truncated")
        let typeColumn = table.lines[0].range(of: "TYPE")?.lowerBound.utf16Offset(in: table.lines[0])
        #expect(typeColumn != nil)
        #expect(typeColumn == table.lines[1].range(of: "Noted")?.lowerBound.utf16Offset(in: table.lines[1]))
    }

    @Test func aRepeatedIdReturnsTheSamePositionAndWritesNothing() async throws {
        defer { directory.remove() }
        let id = UUID().uuidString
        _ = try await append("other", "T", "{}")
        let first = try await append("s", "T", #"{"n":1}"#, "--id", id)
        let again = try await append("s", "T", #"{"n":1}"#, "--id", id)
        #expect(first["position"] as? Int == 2)
        #expect(again["position"] as? Int == 2)
        #expect(again["version"] as? Int == 1)
        #expect(try await head() == 2)
    }

    @Test func anExpectedVersionMismatchExitsThreeNamingTheActualVersion() async throws {
        defer { directory.remove() }
        _ = try await append("s", "T", "{}", "--expected-version", "no-stream")
        _ = try await append("s", "T", "{}", "--expected-version", "1")
        let conflict = try await muster("append", "--stream", "s", "--type", "T", "--expected-version", "5", "{}")
        #expect(conflict.status == 3, "\(conflict)")
        #expect(conflict.stderr.hasPrefix("muster: "))
        #expect(conflict.stderr.contains("version 2"), "\(conflict.stderr)")
        #expect(conflict.stdout.isEmpty)
        let noStream = try await muster(
            "append", "--stream", "s", "--type", "T", "--expected-version", "no-stream", "{}")
        #expect(noStream.status == 3, "\(noStream)")
        #expect(try await head() == 2)
    }

    @Test func aMalformedBodyExitsTwoWithLineAndColumnAndStoresNothing() async throws {
        defer { directory.remove() }
        _ = try await append("s", "T", "{}")
        let bad = try await muster("append", "--stream", "s", "--type", "T", "-", stdin: "{\"a\": 1,\n  \"b\": tru}")
        #expect(bad.status == 2, "\(bad)")
        #expect(bad.stderr.contains("line 2, column 8"), "\(bad.stderr)")
        let trailingComma = try await muster("append", "--stream", "s", "--type", "T", "[1, 2,]")
        #expect(trailingComma.status == 2, "\(trailingComma)")
        #expect(trailingComma.stderr.contains("line 1, column 7"), "\(trailingComma.stderr)")
        let scalar = try await muster("append", "--stream", "s", "--type", "T", "42")
        #expect(scalar.status == 2, "\(scalar)")
        #expect(try await head() == 1)
    }

    @Test(arguments: [
        ("{\"a\": 1,}", "line 1, column 9: trailing comma"),
        ("{\"a\" 1}", "line 1, column 6: unexpected character '1': expected ':'"),
        ("[1, 2", "line 1, column 6: unexpected end of input"),
        ("{\"é\": x}", "line 1, column 7: unexpected character 'x'"),
        ("\n\n  {\"a\": 01}", "line 3, column 10: invalid number: leading zero"),
        ("{\"a\": \"tab\there\"}", "line 1, column 11: control character"),
        ("{} {}", "line 1, column 4: unexpected text after the JSON value"),
    ])
    func malformedBodiesAreLocated(body: String, expected: String) async throws {
        defer { directory.remove() }
        let outcome = try await muster("append", "--stream", "s", "--type", "T", "-", stdin: body)
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.stderr.contains(expected), "\(outcome.stderr)")
        let dataFile = directory.url.appendingPathComponent("data/data.mdb")
        #expect(!FileManager.default.fileExists(atPath: dataFile.path), "invalid input creates no store")
    }

    @Test func badUsageExitsTwo() async throws {
        defer { directory.remove() }
        let unknown = try await muster("append", "--stream", "s", "--type", "T", "--colour", "red", "{}")
        #expect(unknown.status == 2, "\(unknown)")
        #expect(unknown.stderr.contains("--colour"), "\(unknown.stderr)")
        let badExpected = try await muster("append", "--stream", "s", "--type", "T", "--expected-version", "soon", "{}")
        #expect(badExpected.status == 2, "\(badExpected)")
        let badName = try await muster("append", "--stream", "", "--type", "T", "{}")
        #expect(badName.status == 2, "\(badName)")
        #expect(badName.stderr.contains("stream name"), "\(badName.stderr)")
        let missing = try await muster("events")
        #expect(missing.status == 2, "no data directory yet: \(missing)")
    }

    @Test func eventsFiltersByStreamTypeNamespacePositionAndLimit() async throws {
        defer { directory.remove() }
        _ = try await append("a", "X", "{}")  // 1
        _ = try await append("b", "Y", "{}")  // 2
        _ = try await append("a", "Y", "{}")  // 3
        _ = try await append("a", "X", "{}", "--namespace", "ns2")  // 4
        _ = try await append("c", "X", "{}")  // 5
        #expect(try await positions() == [1, 2, 3, 4, 5])
        #expect(try await positions("--stream", "a") == [1, 3])
        #expect(try await positions("--stream", "a", "--namespace", "ns2") == [4])
        #expect(try await positions("--type", "X") == [1, 4, 5])
        #expect(try await positions("--type", "X", "--from", "2") == [4, 5])
        #expect(try await positions("--namespace", "ns2") == [4])
        #expect(try await positions("--namespace", "default", "--type", "Y") == [2, 3])
        #expect(try await positions("--from", "3", "--limit", "2") == [3, 4])
        #expect(try await positions("--limit", "0") == [])
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func followSeesAnAppendMadeByAnotherProcess(stoppedBy signal: Int32) async throws {
        defer { directory.remove() }
        _ = try await append("s", "Before", "{}")
        let follower = try MusterProcess.Running(["events", "--follow", "--json"] + data)
        let existing = await follower.waitForLine { $0.contains("\"Before\"") }
        #expect(existing != nil)
        _ = try await append("s", "After", #"{"n": 2}"#)
        let seen = try #require(await follower.waitForLine { $0.contains("\"After\"") })
        let event = try #require(try JSONSerialization.jsonObject(with: Data(seen.utf8)) as? [String: Any])
        #expect(event["position"] as? Int == 2)
        #expect(event["version"] as? Int == 2)
        let status = await follower.stop(with: signal)
        #expect(status == 0, "the signal stops the follower cleanly")
    }

    // MARK: import

    @Test func importsTenThousandLinesInBatches() async throws {
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("events.jsonl")
        var text = ""
        for n in 1...10_000 {
            text += #"{"stream":"s-\#(n / 100)","type":"\#(n % 2 == 0 ? "Even" : "Odd")","body":{"n":\#(n)}}"# + "\n"
        }
        try text.write(to: file, atomically: true, encoding: .utf8)
        let imported = try await muster("import", "--json", file.path)
        #expect(imported.status == 0, "\(imported)")
        let result = try imported.json()
        #expect(result["imported"] as? Int == 10_000)
        #expect(result["lastPosition"] as? Int == 10_000)
        #expect(imported.stderr.contains("import"), "progress goes to stderr")
        #expect(try await head() == 10_000)
        let even = try await positions("--type", "Even")
        #expect(even.count == 5_000)
        let stream = try await muster("events", "--json", "--stream", "s-7")
        let versions = try stream.jsonLines().map { $0["version"] as? Int ?? -1 }
        #expect(versions == Array(1...100))
    }

    @Test func aBadLineStopsTheImportKeepingOnlyTheBatchesBeforeIt() async throws {
        defer { directory.remove() }
        var lines = (1...10).map { #"{"stream":"s","type":"T","body":{"n":\#($0)}}"# }
        lines[6] = #"{"stream":"s","type":"T","body":{"n":7}"#  // line 7: unterminated object
        let bad = try await muster("import", "--batch-size", "5", "-", stdin: lines.joined(separator: "\n"))
        #expect(bad.status == 2, "\(bad)")
        #expect(bad.stderr.contains("muster: line 7:"), "\(bad.stderr)")
        #expect(try await head() == 5, "the first batch (lines 1–5) is kept, line 6 of the failing batch is not")

        let missingBody = try await muster("import", "-", stdin: #"{"stream":"s","type":"T"}"#)
        #expect(missingBody.status == 2)
        #expect(missingBody.stderr.contains("line 1: missing \"body\""), "\(missingBody.stderr)")
        let badExpected = try await muster(
            "import", "-", stdin: #"{"stream":"s","type":"T","body":{},"expectedVersion":"later"}"#)
        #expect(badExpected.status == 2)
        #expect(badExpected.stderr.contains("expectedVersion"), "\(badExpected.stderr)")
        #expect(try await head() == 5)
    }

    /// The next batch is read while one commits: when that commit fails, its line is the one reported, though a
    /// later line was read first and is bad too.
    @Test func aFailedCommitIsReportedBeforeABadLineReadAfterIt() async throws {
        defer { directory.remove() }
        var lines = (1...10).map { #"{"stream":"s","type":"T","body":{"n":\#($0)}}"# }
        lines[2] = #"{"stream":"t","type":"T","body":{},"expectedVersion":4}"#  // line 3: t does not exist
        lines[7] = #"{"stream":"s","type":"T""#  // line 8: not JSON
        let failed = try await muster("import", "--batch-size", "5", "-", stdin: lines.joined(separator: "\n"))
        #expect(failed.status == 3, "\(failed)")
        #expect(failed.stderr.contains("muster: line 3:"), "\(failed.stderr)")
        #expect(!failed.stderr.contains("line 8"), "\(failed.stderr)")
        #expect(!dataDirectoryExists, "nothing of the failed batch, nothing after it: no data directory either")
    }

    @Test func anImportConflictNamesItsLineAndWritesNothingOfTheBatch() async throws {
        defer { directory.remove() }
        let input = [
            #"{"stream":"a","type":"T","body":{}}"#,
            #"{"stream":"b","type":"T","body":{},"expectedVersion":"no-stream"}"#,
            #"{"stream":"b","type":"T","body":{},"expectedVersion":3}"#,
        ].joined(separator: "\n")
        let conflict = try await muster("import", "-", stdin: input)
        #expect(conflict.status == 3, "\(conflict)")
        #expect(conflict.stderr.contains("line 3:"), "\(conflict.stderr)")
        #expect(!dataDirectoryExists, "nothing was stored, and the data directory made for it is gone")
    }

    @Test func aGroupMixingStoredAndNewIdsIsRefusedNamingItsLines() async throws {
        defer { directory.remove() }
        let stored = UUID().uuidString
        _ = try await append("s", "T", "{}", "--id", stored)
        let input = [
            #"{"stream":"s","type":"T","body":{},"id":"\#(stored)"}"#,
            #"{"stream":"s","type":"T","body":{},"id":"\#(UUID().uuidString)"}"#,
        ].joined(separator: "\n")
        let outcome = try await muster("import", "-", stdin: input)
        #expect(outcome.status == 3, "\(outcome)")
        #expect(outcome.stderr.contains("line 1 (first of lines 1–2, appended together):"), "\(outcome.stderr)")
        #expect(try await head() == 1)
    }

    @Test func mustersOwnEventTypesAreRefusedByImportAndAppendNamingWhatToDo() async throws {
        defer { directory.remove() }
        let user =
            #"{"stream":"user/kim","type":"UserCreated","body":{"hasPassword":false,"isAdmin":true,"name":"kim","timeZone":"UTC"}}"#
        let imported = try await muster(
            "import", "-", stdin: #"{"stream":"s","type":"T","body":{}}"# + "\n" + user)
        #expect(imported.status == 2, "\(imported)")
        #expect(
            imported.stderr.contains("line 2: \"type\" UserCreated is one of Muster's own event types"),
            "\(imported.stderr)")
        #expect(imported.stderr.contains("muster backup and muster restore"), "\(imported.stderr)")
        let appended = try await muster("append", "--stream", "user/kim", "--type", "PayloadSent", "{}")
        #expect(appended.status == 2, "\(appended)")
        #expect(appended.stderr.contains("--type PayloadSent is one of Muster's own event types"), "\(appended.stderr)")
        #expect(!dataDirectoryExists, "nothing of either was stored, and no data directory was left")
    }

    @Test func theOutputOfEventsImportsAsItIs() async throws {
        defer { directory.remove() }
        let id = UUID().uuidString
        _ = try await append("s", "T", #"{"n": 1}"#, "--id", id, "--namespace", "ns", "--actor", "bob")
        _ = try await append("s", "U", "[true]", "--namespace", "ns")
        let dump = try await muster("events", "--json")
        let copy = directory.url.appendingPathComponent("copy")
        let imported = try await MusterProcess.run(["import", "--data", copy.path, "-"], stdin: dump.stdout)
        #expect(imported.status == 0, "\(imported)")
        #expect(imported.stdout.contains("imported 2 events"), "\(imported.stdout)")
        let copied = try await MusterProcess.run(["events", "--json", "--data", copy.path])
        let original = try dump.jsonLines()
        let lines = try copied.jsonLines()
        #expect(lines.count == 2)
        for key in ["id", "stream", "namespace", "version", "type", "actor", "schemaVersion"] {
            #expect(lines.map { "\($0[key] ?? "")" } == original.map { "\($0[key] ?? "")" }, "\(key)")
        }
        #expect(lines[0]["id"] as? String == id)
        #expect((lines[1]["body"] as? [Bool]) == [true])
        let again = try await MusterProcess.run(["import", "--json", "--data", copy.path, "-"], stdin: dump.stdout)
        #expect(try again.json()["imported"] as? Int == 0, "re-importing the same ids writes nothing")
    }

    // MARK: status, rebuild, migrate

    @Test func statusReportsHeadProjectionsMapAndStatistics() async throws {
        defer { directory.remove() }
        _ = try await append("s", "T", #"{"n":1}"#)
        _ = try await append("s", "T", #"{"n":2}"#)
        let outcome = try await muster("status", "--json")
        #expect(outcome.status == 0, "\(outcome)")
        let status = try outcome.json()
        #expect(status["head"] as? Int == 2)
        #expect(status["events"] as? Int == 2)
        #expect(status["formatVersion"] as? Int == 2)
        #expect((status["mapSize"] as? Int ?? 0) > 0)
        #expect((status["mapUsed"] as? Int ?? 0) > 0)
        let projections = try #require(status["projections"] as? [[String: Any]])
        #expect(
            Set(projections.compactMap { $0["name"] as? String }) == [
                "byType", "byNamespace", "statistics", "directory", "inbox", "namedPayloads", "requests", "settings",
                "documents", "sessions", "areas", "rules", "geotriggers", "deviceOwners", "pushSources", "outbox",
                "mqttDevices", "notices",
            ])
        for p in projections {
            for key in ["name", "mode", "version", "storedVersion", "generation", "checkpoint", "isCurrent", "lag"] {
                #expect(p[key] != nil, "projection \(p["name"] ?? "?") lacks \(key)")
            }
        }
        let inline = projections.filter { $0["mode"] as? String == "inline" }
        #expect(!inline.isEmpty && inline.allSatisfy { $0["isCurrent"] as? Bool == true })
        let statistics = try #require(status["statistics"] as? [String: Any])
        #expect((statistics["lag"] as? Int) == 2 - (statistics["checkpoint"] as? Int ?? -1))
        let human = try await muster("status")
        #expect(human.status == 0)
        #expect(human.stdout.contains("log head        2"), "\(human.stdout)")
    }

    @Test func rebuildKeepsQueriesRightAndCatchesUpStatistics() async throws {
        defer { directory.remove() }
        let input = (1...50).map { #"{"stream":"s\#($0 % 3)","type":"\#($0 % 5 == 0 ? "Five" : "Other")","body":{}}"# }
        let imported = try await muster("import", "-", stdin: input.joined(separator: "\n"))
        #expect(imported.status == 0, "\(imported)")
        let rebuilt = try await muster("rebuild", "--json")
        #expect(rebuilt.status == 0, "\(rebuilt)")
        let result = try rebuilt.json()
        let statuses = try #require(result["projections"] as? [[String: Any]])
        #expect(statuses.allSatisfy { $0["isCurrent"] as? Bool == true }, "\(statuses)")
        #expect(statuses.allSatisfy { $0["generation"] as? Int == 2 }, "swapped into fresh tables")
        #expect(try await positions("--type", "Five") == [5, 10, 15, 20, 25, 30, 35, 40, 45, 50])
        let status = try await muster("status", "--json").json()
        let statistics = try #require(status["statistics"] as? [String: Any])
        #expect(statistics["lag"] as? Int == 0)
        let rows = try #require(statistics["rows"] as? [[String: Any]])
        #expect(rows.first { $0["type"] as? String == "Five" }?["events"] as? Int == 10)

        let one = try await muster("rebuild", "byType")
        #expect(one.status == 0, "\(one)")
        #expect(one.stdout.contains("rebuilt byType"), "\(one.stdout)")
        let unknown = try await muster("rebuild", "nope")
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("known: "), "\(unknown.stderr)")
        #expect(unknown.stderr.contains("byType"), "\(unknown.stderr)")
    }

    @Test func migrateOnACurrentDirectorySaysSo() async throws {
        defer { directory.remove() }
        _ = try await append("s", "T", "{}")
        let outcome = try await muster("migrate")
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.stdout.contains("already current"), "\(outcome.stdout)")
        let json = try await muster("migrate", "--json").json()
        #expect(json["alreadyCurrent"] as? Bool == true)
        #expect(json["format"] as? Int == 2)
        #expect(try await head() == 1)
    }
}
