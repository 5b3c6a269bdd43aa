import EventLog

extension MusterDomain {
    /// The secrets of push sources, which a replica of a cluster must hold to sign pushes once it takes the namespace
    /// over: `PushSourceConfigured` names its key's fingerprint; it and `PushSourceRemoved` may leave a key unused; the
    /// keys in use are those of the sources configured now, in any namespace.
    public static let secretReferences = SecretReferences(
        named: { event in
            guard event.type == PushSourceConfigured.type, let source = try? PushSourceConfigured.decode(event)
            else { return [] }
            return [source.fingerprint]
        },
        mayRelease: { $0.type == PushSourceConfigured.type || $0.type == PushSourceRemoved.type },
        inUse: { log in try PushSources(log: log).fingerprintsInUse() })
}
