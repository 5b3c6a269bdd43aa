import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOEmbedded
import Synchronization
import Testing

@testable import MusterHTTP

/// A live stream reads its events as its client takes them: a backlog longer than any buffer, sent to a client that
/// reads slowly, arrives whole on one stream, the server reads no more than its queue's limit ahead of the client, and
/// what waits goes out in one write.
@Suite struct EventStreamTests {
    @Test func aLongBacklogReachesASlowClientWholeAndIsReadAsTheClientGoes() async throws {
        let backlog = Backlog(count: 10_000)
        let closed = EmbeddedEventLoop().makePromise(of: Void.self)
        defer { closed.succeed() }
        let response = EventStream.response(
            backlog, keepAlive: .seconds(600), metrics: ServerMetrics(), until: closed.futureResult, queueLimit: 1024
        ) { true }
        let client = SlowClient(backlog: backlog)
        try await response.body.write(client)

        let seen = client.record.seen.withLock { $0 }
        #expect(seen.finished, "the stream ended by finishing its body")
        #expect(seen.ids.count == 10_000, "every event of the backlog on one stream")
        #expect(seen.ids.enumerated().allSatisfy { $0.element == UInt64($0.offset) + 1 }, "in order, each once")
        // A frame here is 36 to 40 bytes: 1 KiB holds 29 at most, and one more may wait to be added.
        #expect(seen.mostAhead <= 1024 / 36 + 2, "read \(seen.mostAhead) events ahead of the client")
        #expect(seen.writes < 10_000 / 4, "\(seen.writes) writes for 10,000 events: what waited went out together")
    }
}

/// `count` events, all ready at once (as a backlog in the log is), counting how many were asked for.
private final class Backlog: AsyncSequence, Sendable {
    let count: Int
    let asked = Mutex(0)

    init(count: Int) { self.count = count }

    func makeAsyncIterator() -> Iterator { Iterator(backlog: self) }

    struct Iterator: AsyncIteratorProtocol {
        let backlog: Backlog
        mutating func next() async throws -> ServerSentEvent? {
            let position = backlog.asked.withLock { asked -> Int? in
                guard asked < backlog.count else { return nil }
                asked += 1
                return asked
            }
            return position.map { ServerSentEvent(id: UInt64($0), event: "publish", data: Data(#"{"n":1}"#.utf8)) }
        }
    }
}

/// A client that gives way to the server before each write it takes, and notes how far the server had read ahead.
private struct SlowClient: ResponseBodyWriter {
    struct Seen {
        var ids: [UInt64] = []
        var mostAhead = 0
        var writes = 0
        var finished = false
    }

    final class Record: Sendable {
        let seen = Mutex(Seen())
    }

    let backlog: Backlog
    let record = Record()

    mutating func write(_ buffer: ByteBuffer) async throws {
        for _ in 0..<100 { await Task.yield() }
        let ids = String(buffer: buffer).split(separator: "\n").compactMap { line in
            line.hasPrefix("id: ") ? UInt64(line.dropFirst(4)) : nil
        }
        guard !ids.isEmpty else { return }
        let asked = backlog.asked.withLock { $0 }
        record.seen.withLock {
            $0.ids += ids
            $0.writes += 1
            $0.mostAhead = max($0.mostAhead, asked - $0.ids.count)
        }
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {
        record.seen.withLock { $0.finished = true }
    }
}
