import CNATS

/// A stream's configuration and state as the stream's leader reported them.
public struct StreamInfo: Sendable, Hashable {
    /// The stream's settings.
    public let configuration: StreamConfiguration
    /// How many messages it holds.
    public let messages: UInt64
    /// How many bytes its messages take.
    public let bytes: UInt64
    /// The sequence of its first message (0 while empty).
    public let firstSequence: UInt64
    /// The sequence of its last message: the sequence the next publish's `expectedLastSequence` must give.
    public let lastSequence: UInt64
    /// Its servers, when JetStream runs clustered.
    public let cluster: StreamCluster?

    /// Copies what libnats decoded; `info` stays the caller's to free.
    init(_ info: jsStreamInfo) {
        configuration =
            info.Config.map { StreamConfiguration($0.pointee) } ?? StreamConfiguration(name: "", subjects: [])
        messages = info.State.Msgs
        bytes = info.State.Bytes
        firstSequence = info.State.FirstSeq
        lastSequence = info.State.LastSeq
        cluster = info.Cluster.map { StreamCluster($0.pointee) }
    }
}

/// The servers of a replicated stream.
public struct StreamCluster: Sendable, Hashable {
    /// The JetStream cluster's name.
    public let name: String?
    /// The server leading the stream (the one that orders and acknowledges publishes), nil while there is none.
    public let leader: String?
    /// The other servers keeping a copy.
    public let replicas: [StreamReplica]

    init(_ cluster: jsClusterInfo) {
        name = cluster.Name.map { String(cString: $0) }
        leader = cluster.Leader.map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        replicas = (0..<Int(cluster.ReplicasLen)).compactMap { index in
            cluster.Replicas[index].map { StreamReplica($0.pointee) }
        }
    }
}

/// One follower of a replicated stream, as its leader sees it.
public struct StreamReplica: Sendable, Hashable {
    /// The server's name (`server_name`).
    public let name: String
    /// Whether it has everything the leader has.
    public let current: Bool
    /// Whether the leader has lost contact with it.
    public let offline: Bool
    /// How many operations it is behind the leader.
    public let lag: UInt64
    /// How long ago the leader last heard from it.
    public let lastSeen: Duration

    init(_ peer: jsPeerInfo) {
        name = peer.Name.map { String(cString: $0) } ?? ""
        current = peer.Current
        offline = peer.Offline
        lag = peer.Lag
        lastSeen = .nanoseconds(peer.Active)
    }
}
