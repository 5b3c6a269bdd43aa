import NIOCore
import Testing

@testable import MusterHTTP

/// The queue between a live stream's reader and its writer: the writer takes all that waits at once, the reader waits
/// for room past the limit, and finishing or cancelling lets either go.
@Suite struct FrameQueueTests {
    @Test func theWriterTakesAllThatWaitsAndTheReaderWaitsForRoom() async {
        let queue = FrameQueue(limit: 4)
        #expect(await queue.push(ByteBuffer(string: "ab")))
        #expect(await queue.push(ByteBuffer(string: "cde")))  // 2 bytes waited: room for one more frame
        let third = Task { await queue.push(ByteBuffer(string: "f")) }  // 5 bytes wait: this one waits for room
        #expect(await queue.take().map { String(buffer: $0) } == "abcde")
        #expect(await third.value)
        #expect(await queue.take().map { String(buffer: $0) } == "f")
    }

    @Test func finishingEndsAWaitingWriterAfterWhatWaits() async {
        let queue = FrameQueue(limit: 4)
        #expect(await queue.push(ByteBuffer(string: "ab")))
        queue.finish()
        #expect(await queue.take().map { String(buffer: $0) } == "ab", "what waited is still written")
        #expect(await queue.take() == nil)
        #expect(await queue.push(ByteBuffer(string: "c")) == false, "nothing is added once finished")
        let empty = FrameQueue()
        let writer = Task { await empty.take() }
        empty.finish()
        #expect(await writer.value == nil)
    }

    @Test func aCancelledReaderOrWriterStops() async {
        let queue = FrameQueue(limit: 1)
        #expect(await queue.push(ByteBuffer(string: "ab")))
        let reader = Task { await queue.push(ByteBuffer(string: "c")) }
        reader.cancel()
        #expect(await reader.value == false)
        let writer = Task { await FrameQueue().take() }
        writer.cancel()
        #expect(await writer.value == nil)
    }
}
