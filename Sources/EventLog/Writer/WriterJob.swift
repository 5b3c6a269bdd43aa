/// One unit of work queued to the writer thread, resumed after the commit that holds it.
protocol WriterJob: AnyObject, Sendable {
    /// Runs on the writer thread inside the batch's transaction; a throw discards only this job's writes.
    func run(_ scope: WriteScope) throws
    /// Forgets the outcome of `run` (the batch is retried after growing the map).
    func reset()
    /// Resumes the caller after the batch committed (with the result of `run`) or failed.
    func finish(committed: Result<Void, StoreError>)
}

/// A job running a closure and handing its result, once, to whoever waits for it.
final class ClosureJob<T: Sendable>: WriterJob, @unchecked Sendable {
    // Touched only on the writer thread until `finish`, which hands the result over once.
    private let work: (WriteScope) throws -> T
    private let deliver: @Sendable (Result<T, any Error>) -> Void
    private var outcome: Result<T, any Error>?

    init(_ work: @escaping (WriteScope) throws -> T, _ continuation: CheckedContinuation<T, any Error>) {
        self.work = work
        self.deliver = { continuation.resume(with: $0) }
    }

    init(_ work: @escaping (WriteScope) throws -> T, _ pending: PendingWrite<T>) {
        self.work = work
        self.deliver = { pending.settle($0) }
    }

    func run(_ scope: WriteScope) throws {
        do {
            outcome = .success(try work(scope))
        } catch {
            outcome = .failure(error)
            throw error
        }
    }

    func reset() { outcome = nil }

    func finish(committed: Result<Void, StoreError>) {
        switch (committed, outcome) {
        case (.failure(let error), _): deliver(.failure(error))
        case (.success, .success(let value)): deliver(.success(value))
        case (.success, .failure(let error)): deliver(.failure(error))
        case (.success, nil):
            deliver(.failure(StoreError(.cancelled, "the writer stopped before running this")))
        }
    }
}
