import Synchronization
import Testing

@testable import MusterClient

/// The hand-over between a live stream's connection and its consumer.
@Suite struct EventBufferTests {
    struct Broke: Error {}

    @Test func whatIsHeldIsTakenInOrderBeforeTheEndIsSeen() async throws {
        let buffer = EventBuffer<Int>(limit: 4)
        #expect(buffer.append(1) && buffer.append(2) && buffer.append(3))
        #expect(!buffer.append(4), "full at its limit")
        buffer.finish(throwing: Broke())
        let events = buffer.makeAsyncIterator()
        #expect(try await events.next() == 1)
        #expect(try await events.next() == 2)
        #expect(try await events.next() == 3)
        #expect(try await events.next() == 4)
        await #expect(throws: Broke.self) { try await events.next() }
    }

    @Test func aFullBufferLetsTheProducerGoOnOnceHalfIsTaken() async throws {
        let buffer = EventBuffer<Int>(limit: 4)
        for n in 1...4 { _ = buffer.append(n) }
        let resumed = Mutex(false)
        let producer = Task {
            await buffer.room()
            resumed.withLock { $0 = true }
        }
        let events = buffer.makeAsyncIterator()
        #expect(try await events.next() == 1)
        #expect(!resumed.withLock { $0 }, "three of four still held")
        #expect(try await events.next() == 2)
        await producer.value
        #expect(resumed.withLock { $0 })
        #expect(buffer.largest == 4)
    }

    @Test func aConsumerThatGoesAwayStopsTheProducer() async {
        let buffer = EventBuffer<Int>(limit: 4)
        let stopped = Mutex(false)
        buffer.onConsumerGone { stopped.withLock { $0 = true } }
        do {
            let events = buffer.makeAsyncIterator()
            _ = events
        }
        #expect(stopped.withLock { $0 })
        #expect(!buffer.append(1), "nothing is taken once the consumer is gone")
        await buffer.room()
    }

    @Test func aCancelledConsumerGetsNil() async throws {
        let buffer = EventBuffer<Int>(limit: 4)
        let consumer = Task { try await buffer.makeAsyncIterator().next() }
        consumer.cancel()
        #expect(try await consumer.value == nil)
    }
}
