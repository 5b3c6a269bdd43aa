/// Asks a long operation (backup, restore) to stop: it looks at its steps' boundaries and between the pieces of the
/// files it copies, then throws `.cancelled` and removes what it wrote.
public struct OperationCancellation: Sendable {
    private let isCancelled: @Sendable () -> Bool

    /// Cancelled once `isCancelled` returns true (it is called from the operation's own thread).
    public init(_ isCancelled: @escaping @Sendable () -> Bool) { self.isCancelled = isCancelled }

    /// Never cancelled.
    public static let never = OperationCancellation { false }

    /// Throws `.cancelled` once cancelled.
    func check() throws {
        if isCancelled() { throw StoreError(.cancelled, "the operation was interrupted") }
    }
}
