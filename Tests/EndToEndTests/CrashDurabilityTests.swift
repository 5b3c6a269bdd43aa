import EventLog
import EventLogTesting
import Foundation
import Testing

/// Every acknowledged event survives a SIGKILL of the writing process.
@Suite(.serialized) struct CrashDurabilityTests {
    @Test func everyAcknowledgedEventIsPresentAfterSIGKILLMidLoad() async throws {
        let directory = try TemporaryDirectory("crash")
        defer { directory.remove() }
        let process = Process()
        process.executableURL = try BuiltProduct.url("muster-loadgen")
        process.arguments = [directory.url.path, "32"]
        let stdout = Pipe()
        process.standardOutput = stdout
        try process.run()

        // Read acknowledgements until enough arrived, then kill the writer mid-load.
        let reader = stdout.fileHandleForReading
        var received = Data()
        while received.split(separator: UInt8(ascii: "\n")).count < 3000 {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            received.append(chunk)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        received.append(reader.readDataToEndOfFile())
        #expect(process.terminationReason == .uncaughtSignal)

        // Only complete lines are acknowledgements; a torn last line is not.
        var lines = String(decoding: received, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        if !(String(decoding: received, as: UTF8.self).hasSuffix("\n")) { lines.removeLast() }
        let acknowledged = lines.filter { !$0.isEmpty }.map { line -> (UInt64, UUID) in
            let parts = line.split(separator: " ")
            return (UInt64(parts[0])!, UUID(uuidString: String(parts[1]))!)
        }
        #expect(acknowledged.count >= 3000)

        let log = try EventLog(directory: directory.url)
        defer { log.close() }
        let events = try log.events(EventQuery())
        let head = log.head
        #expect(events.map(\.position) == Array(1...head), "positions are contiguous")
        let maximum = acknowledged.map(\.0).max()!
        #expect(head >= maximum)
        let byPosition = Dictionary(uniqueKeysWithValues: events.map { ($0.position, $0.id) })
        for (position, id) in acknowledged {
            #expect(byPosition[position] == id, "acknowledged event at \(position) is stored with its id")
        }
        // The reopened log accepts appends right after the survivors.
        let next = try await log.append(AppendRequest(stream: "after", events: [.sample()]))
        #expect(next.positions == [head + 1])
    }
}
