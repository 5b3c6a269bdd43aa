import EventLog
import EventLogTesting
import Foundation
import Testing

/// Every acknowledged event survives a SIGKILL of the writing process.
@Suite(.serialized) struct CrashDurabilityTests {
    @Test func everyAcknowledgedEventIsPresentAfterSIGKILLMidLoad() async throws {
        let directory = try TemporaryDirectory("crash")
        defer { directory.remove() }
        // The writer's stdout is a pipe this test reads (posix_spawn: Foundation's `Process.run` has crashed the test
        // process in full runs). The write end is closed here once the child has its copy, so the read sees the end.
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        // Close-on-exec: only the child's stdout, a dup2 of the write end, crosses its exec.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let child: ChildProcess
        do {
            child = try ChildProcess(
                try BuiltProduct.url("muster-loadgen").path, [directory.url.path, "32"], stdoutDescriptor: ends[1])
        } catch {
            ends.forEach { close($0) }
            throw error
        }
        close(ends[1])
        let descriptor = ends[0]
        defer { close(descriptor) }

        // Read acknowledgements until enough arrived, then kill the writer mid-load. The reads block, so on a thread
        // of their own.
        let (received, status) = await onOwnThread { [child] in
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            var lines = 0
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                received += buffer[..<count]
                let before = lines
                lines += buffer[..<count].count { $0 == UInt8(ascii: "\n") }
                if before < 3000 && lines >= 3000 { child.send(SIGKILL) }
            }
            if lines < 3000 { child.send(SIGKILL) }
            var status: Int32 = 0
            while waitpid(child.pid, &status, 0) < 0 && errno == EINTR {}
            return (Data(received), status)
        }
        #expect(status & 0x7f == SIGKILL, "the writer was killed, wait status \(status)")

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
