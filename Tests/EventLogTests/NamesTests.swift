import EventLog
import EventLogTesting
import Testing

@Suite struct NamesTests {
    @Test(arguments: [
        ("", "must not be empty"),
        ("a\u{0}b", "control character U+0"),
        ("tab\there", "control character U+9"),
        (String(repeating: "x", count: 201), "at most 200"),
    ])
    func badStreamNamesAreRejectedWithTheReason(name: String, reason: String) async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open()
        let error = await #expect(throws: StoreError.self) {
            try await log.append(AppendRequest(stream: name, events: [.sample()]))
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("stream name") == true)
        #expect(error?.message.contains(reason) == true)
        #expect(log.head == 0)
    }

    @Test func anEmptyAppendIsRejected() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open()
        await #expect(throws: StoreError.self) { try await log.append(AppendRequest(stream: "s", events: [])) }
        #expect(log.head == 0)
    }
}
