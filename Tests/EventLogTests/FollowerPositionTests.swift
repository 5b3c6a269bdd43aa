import EventLog
import EventLogTesting
import Foundation
import Testing

/// An outside follower saves how far it got, and finds it again after the log is closed and opened.
@Suite struct FollowerPositionTests {
    @Test func aSavedPositionIsReadBackAfterReopeningAndOthersAreApart() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        var log = try t.open()
        #expect(try log.followerPosition("forwarder") == nil)
        try await log.append(AppendRequest(stream: "s", events: [.sample(), .sample(n: 2)]))
        try await log.perform { try $0.saveFollowerPosition("forwarder", 2) }
        try await log.perform { try $0.saveFollowerPosition("hooks", 1) }
        log.close()

        log = try t.open()
        defer { log.close() }
        #expect(try log.followerPosition("forwarder") == 2)
        #expect(try log.followerPosition("hooks") == 1)
    }

    @Test func aPositionSavedByAWriteThatFailsIsNotKept() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open()
        defer { log.close() }
        try await log.perform { try $0.saveFollowerPosition("forwarder", 1) }
        await #expect(throws: Refused.self) {
            try await log.perform { scope in
                try scope.saveFollowerPosition("forwarder", 5)
                throw Refused()
            }
        }
        #expect(try log.followerPosition("forwarder") == 1)
    }
}
