/// One unit of work queued to the writer thread, resumed after the commit that holds it.
protocol WriterJob: AnyObject, Sendable {
    /// Runs on the writer thread inside the batch's transaction; a throw discards only this job's writes.
    func run(_ scope: WriteScope) throws
    /// Forgets the outcome of `run` (the batch is retried after growing the map).
    func reset()
    /// Resumes the caller after the batch committed (with the result of `run`) or failed.
    func finish(committed: Result<Void, StoreError>)
}

/// A job running a closure and handing its result, once, to whoever waits for it, with the last position it
/// appended (0 when it appended nothing), which a replicated log waits for before it answers.
final class ClosureJob<T: Sendable>: WriterJob, @unchecked Sendable {
    // Touched only on the writer thread until `finish`, which hands the result over once.
    private let work: (WriteScope) throws -> T
    private let deliver: @Sendable (Result<T, any Error>, UInt64) -> Void
    private var outcome: Result<T, any Error>?
    private var appendedThrough: UInt64 = 0

    init(
        _ work: @escaping (WriteScope) throws -> T,
        _ deliver: @escaping @Sendable (Result<T, any Error>, UInt64) -> Void
    ) {
        self.work = work
        self.deliver = deliver
    }

    func run(_ scope: WriteScope) throws {
        let head = scope.head
        do {
            outcome = .success(try work(scope))
            appendedThrough = scope.head > head ? scope.head : 0
        } catch {
            outcome = .failure(error)
            throw error
        }
    }

    func reset() {
        outcome = nil
        appendedThrough = 0
    }

    func finish(committed: Result<Void, StoreError>) {
        switch (committed, outcome) {
        case (.failure(let error), _): deliver(.failure(error), 0)
        case (.success, .success(let value)): deliver(.success(value), appendedThrough)
        case (.success, .failure(let error)): deliver(.failure(error), 0)
        case (.success, nil):
            deliver(.failure(StoreError(.cancelled, "the writer stopped before running this")), 0)
        }
    }
}
