import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSession {
    /// `data(for:)`, with a cancellation that cannot deadlock.
    ///
    /// swift-corelibs-foundation's `data(for:)` cancels its task synchronously from inside the
    /// Swift task's cancellation handler, which holds the task's status lock, while the session's
    /// queue may at that moment be resuming the same task (needing that lock): both wait forever
    /// (seen on Linux: a cancelled request hung the process). Here the cancel is handed to another
    /// queue, so the handler returns at once.
    func exchange(_ request: URLRequest) async throws -> (Data, URLResponse) {
        let pending = Mutex<URLSessionDataTask?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = dataTask(with: request) { data, response, error in
                    if let data, let response {
                        continuation.resume(returning: (data, response))
                    } else {
                        continuation.resume(throwing: error ?? URLError(.badServerResponse))
                    }
                }
                pending.withLock { $0 = task }
                task.resume()
            }
        } onCancel: {
            let task = pending.withLock { $0 }
            DispatchQueue.global().async { task?.cancel() }
        }
    }
}
