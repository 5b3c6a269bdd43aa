import EventLog
import Foundation

/// The push sources of a namespace: configured with their secret, listed, removed.
///
/// The secret goes into the data directory's secret store before the event that names its fingerprint is
/// appended; a source's secret is erased once the event that replaces or removes it is durable.
public struct PushSources: Sendable {
    let log: EventLog

    public init(log: EventLog) { self.log = log }

    /// Configures (or reconfigures) the source `name`. `details` are public settings shown by `list`; `secret`
    /// is kept out of the log. The caller has checked that the secret is usable for `kind`.
    @discardableResult
    public func configure(
        _ name: String, kind: PushSourceConfigured.Kind, details: [PushSourceConfigured.Detail], endpoint: String?,
        secret: [UInt8], namespace: String = Names.defaultNamespace, actor: String = "system"
    ) async throws -> PushSourceConfigured {
        try Names.validate(namespace, as: "namespace")
        try Names.validate(name, as: "name", maximumBytes: 200)
        let secrets = log.secrets
        let fingerprint = try secrets.store(secret)
        let source = PushSourceConfigured(
            name: name, kind: kind, details: details, endpoint: endpoint, fingerprint: fingerprint)
        let replaced: PushSourceConfigured?
        do {
            replaced = try await log.perform { scope in
                let previous = try scope.pushSources.source(name, namespace: namespace)
                try scope.append(
                    AppendRequest(
                        namespace: namespace, stream: Self.stream(name), events: [source.newEvent(actor: actor)]))
                return previous
            }
        } catch {
            if try !isInUse(fingerprint) { try? secrets.remove(fingerprint) }
            throw error
        }
        if let replaced, replaced.fingerprint != fingerprint, try !isInUse(replaced.fingerprint) {
            try secrets.remove(replaced.fingerprint)
        }
        return source
    }

    /// Removes the source `name` and erases its secret; `.notFound` when the namespace has no such source.
    public func remove(_ name: String, namespace: String = Names.defaultNamespace, actor: String = "system")
        async throws
    {
        let removed = try await log.perform { scope in
            try scope.remove(
                try scope.pushSources.source(name, namespace: namespace),
                else:
                    "no push source \(String(reflecting: name)) in namespace \(namespace); muster push-sources list shows them",
                field: "name", recording: PushSourceRemoved(name: name), in: Self.stream(name), namespace: namespace,
                actor: actor)
        }
        if try !isInUse(removed.fingerprint) { try log.secrets.remove(removed.fingerprint) }
    }

    /// The namespace's sources, by name.
    public func list(namespace: String = Names.defaultNamespace) throws -> [PushSourceConfigured] {
        try log.read { try $0.pushSources.sources(namespace: namespace) }
    }

    /// The source `name`; nil when there is none.
    public func source(_ name: String, namespace: String = Names.defaultNamespace) throws -> PushSourceConfigured? {
        try log.read { try $0.pushSources.source(name, namespace: namespace) }
    }

    /// The secret of `source`; `.notFound` when the store lost it (a data directory copied without `secrets/`).
    public func secret(of source: PushSourceConfigured) throws -> [UInt8] {
        guard let secret = try log.secrets.secret(source.fingerprint) else {
            throw MusterError(
                .notFound,
                "the secret of push source \(String(reflecting: source.name)) (SHA-256 \(source.fingerprint.prefix(12))…) is missing from \(log.secrets.directory.path); configure the source again"
            )
        }
        return secret
    }

    /// One line for each source of any namespace whose secret the store has lost (a data directory copied or
    /// restored without `secrets/`): it could not sign a push.
    public func missingSecrets() throws -> [String] {
        try log.read { reader in
            var missing: [String] = []
            try reader.pushSources.state.scan("sources", prefix: []) { key, value in
                var bytes = ByteReader(value)
                let source = try PushSourceConfigured(from: &bytes)
                guard try log.secrets.secret(source.fingerprint) == nil else { return true }
                let namespace = key.split(separator: 0, omittingEmptySubsequences: false).first.map {
                    String(decoding: $0, as: UTF8.self)
                }
                missing.append(
                    "the secret of push source \(String(reflecting: source.name))"
                        + (namespace.map { " of namespace \($0)" } ?? "")
                        + " (SHA-256 \(source.fingerprint.prefix(12))…) is missing from \(log.secrets.directory.path); "
                        + "configure the source again with muster push-sources add")
                return true
            }
            return missing
        }
    }

    /// Whether any source of any namespace still uses the secret (the same key configured twice).
    private func isInUse(_ fingerprint: String) throws -> Bool { try fingerprintsInUse().contains(fingerprint) }

    /// The fingerprints of the secrets the sources of every namespace use now.
    public func fingerprintsInUse() throws -> Set<String> {
        try log.read { reader in
            var used: Set<String> = []
            try reader.pushSources.state.scan("sources", prefix: []) { _, value in
                var bytes = ByteReader(value)
                used.insert(try PushSourceConfigured(from: &bytes).fingerprint)
                return true
            }
            return used
        }
    }

    static func stream(_ name: String) -> String { "push-source/\(name)" }
}
