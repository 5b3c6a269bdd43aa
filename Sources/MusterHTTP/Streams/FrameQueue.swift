import NIOCore
import Synchronization

/// The frames of one live stream, between the task that reads its events and the one that writes them to the client.
///
/// The reader runs ahead of the client by at most `limit` bytes (and one frame): past that, ``push(_:)`` waits until
/// the writer has taken what is waiting. The writer takes everything waiting in one buffer (``take()``), so a backlog
/// goes out in writes of up to `limit` bytes, and a live event, alone in the queue, goes out at once.
final class FrameQueue: Sendable {
    private struct State {
        var waiting = ByteBuffer()
        var finished = false
        /// The reader, waiting for room.
        var reader: CheckedContinuation<Void, Never>?
        /// The writer, waiting for frames.
        var writer: CheckedContinuation<ByteBuffer?, Never>?
    }

    private let state = Mutex(State())
    /// The most bytes waiting before the reader waits.
    let limit: Int

    init(limit: Int = 64 * 1024) {
        self.limit = limit
    }

    /// Adds `frame` for the writer, waiting while `limit` bytes wait already. False once the queue is finished (or
    /// the task cancelled): the frame will not be written, and the reader should stop.
    func push(_ frame: ByteBuffer) async -> Bool {
        while true {
            let (added, writer, taken) = state.withLock {
                state -> (Bool?, CheckedContinuation<ByteBuffer?, Never>?, ByteBuffer) in
                if state.finished { return (false, nil, ByteBuffer()) }
                guard state.waiting.readableBytes < limit else { return (nil, nil, ByteBuffer()) }
                state.waiting.writeImmutableBuffer(frame)
                guard let writer = state.writer else { return (true, nil, ByteBuffer()) }
                state.writer = nil
                defer { state.waiting = ByteBuffer() }
                return (true, writer, state.waiting)
            }
            writer?.resume(returning: taken)
            if let added { return added }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let now = state.withLock { state -> Bool in
                        if state.finished || state.waiting.readableBytes < limit || Task.isCancelled { return true }
                        state.reader = continuation
                        return false
                    }
                    if now { continuation.resume() }
                }
            } onCancel: {
                state.withLock { state in
                    defer { state.reader = nil }
                    return state.reader
                }?.resume()
            }
            if Task.isCancelled { return false }
        }
    }

    /// Everything waiting, as one buffer; waits while nothing does. Nil once the queue is finished and nothing waits
    /// (or the task is cancelled).
    func take() async -> ByteBuffer? {
        let (taken, reader) = state.withLock { state -> (ByteBuffer??, CheckedContinuation<Void, Never>?) in
            guard state.waiting.readableBytes > 0 else { return (state.finished ? .some(nil) : nil, nil) }
            defer {
                state.waiting = ByteBuffer()
                state.reader = nil
            }
            return (.some(state.waiting), state.reader)
        }
        reader?.resume()
        if let taken { return taken }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<ByteBuffer?, Never>) in
                let (now, reader) = state.withLock { state -> (ByteBuffer??, CheckedContinuation<Void, Never>?) in
                    if state.waiting.readableBytes > 0 {
                        defer {
                            state.waiting = ByteBuffer()
                            state.reader = nil
                        }
                        return (.some(state.waiting), state.reader)
                    }
                    if state.finished || Task.isCancelled { return (.some(nil), nil) }
                    state.writer = continuation
                    return (nil, nil)
                }
                reader?.resume()
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            state.withLock { state in
                defer { state.writer = nil }
                return state.writer
            }?.resume(returning: nil)
        }
    }

    /// Ends the queue: the writer takes what waits, then nil; the reader's next ``push(_:)`` returns false.
    func finish() {
        let (reader, writer) = state.withLock {
            state -> (CheckedContinuation<Void, Never>?, CheckedContinuation<ByteBuffer?, Never>?) in
            state.finished = true
            defer {
                state.reader = nil
                state.writer = nil
            }
            return (state.reader, state.writer)
        }
        reader?.resume()
        // A writer waits only while nothing does: it ends.
        writer?.resume(returning: nil)
    }
}
