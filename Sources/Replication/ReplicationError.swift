/// Why a replicated namespace does not take a write now, or why its replication stopped.
public struct ReplicationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is; extensible without breaking callers.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String { case unavailable, fenced, diverged, notPrimary, notServed }
        private let kind: Kind
        private init(_ kind: Kind) { self.kind = kind }

        /// The cluster cannot replicate writes now (no quorum, no connection): retry later. A write answered so may
        /// be stored on this node and replicated when the cluster is back.
        public static let unavailable = Code(.unavailable)
        /// Another node has written to the namespace: this one takes no write until it has rejoined as a replica.
        public static let fenced = Code(.fenced)
        /// This node's log and the namespace's stream hold different events at the same position.
        public static let diverged = Code(.diverged)
        /// Another node is the namespace's primary (or none is yet): writes go there.
        public static let notPrimary = Code(.notPrimary)
        /// The write is to a namespace this node does not serve.
        public static let notServed = Code(.notServed)

        public var description: String { kind.rawValue }
    }

    /// What kind of failure this is.
    public let code: Code
    /// One line: what happened and what to do.
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
