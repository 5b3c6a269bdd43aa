/// What a node says of itself for one namespace, written every third of the lease time in the leases' bucket (key
/// `node.SUFFIX.NODE`), so it lapses with the lease time once the node is gone: `muster cluster status` reads them.
public struct NodeReport: Codable, Sendable, Hashable {
    /// The node's name.
    public var node: String
    /// Where it serves HTTP.
    public var url: String
    /// The namespace.
    public var namespace: String
    /// `primary`, `replica` or `fenced`.
    public var role: String
    /// The last position of its log of the namespace.
    public var head: UInt64
}

extension ReplicatedNamespace.Role {
    /// The role's word in a report.
    var word: String {
        switch self {
        case .primary: "primary"
        case .replica: "replica"
        case .fenced: "fenced"
        }
    }
}
