import EventLog
import Muster
import PushProviders

/// One provider per configured push source, made on first use from the source and its secret, made again when
/// the source is reconfigured; the old ones are closed when the service stops.
actor ProviderCache {
    /// Makes a provider for a source from its secret; throws when the secret cannot be used.
    typealias Factory = @Sendable (PushSourceConfigured, [UInt8]) async throws -> any PushProvider

    private let sources: PushSources
    private let factory: Factory
    private var providers: [String: (source: PushSourceConfigured, provider: any PushProvider)] = [:]
    /// Providers being made, so deliveries arriving together for a new source wait for one rather than each
    /// making its own.
    private var making: [String: (source: PushSourceConfigured, task: Task<any PushProvider, any Error>)] = [:]
    private var retired: [any PushProvider] = []
    /// How many times a provider was asked for.
    private(set) var asked = 0

    init(sources: PushSources, factory: @escaping Factory) {
        self.sources = sources
        self.factory = factory
    }

    /// The source a delivery goes through now, with its provider: the one chosen at the send, or when it was
    /// removed since, another source of the namespace for the same platform. Throws `Unavailable` when none.
    func provider(for delivery: Delivery) async throws -> (source: PushSourceConfigured, provider: any PushProvider) {
        asked += 1
        let available = try sources.list(namespace: delivery.namespace).filter { $0.kind.platform == delivery.platform }
        guard let source = available.first(where: { $0.name == delivery.source }) ?? available.first else {
            throw Unavailable(
                reason:
                    "no push source for \(delivery.platform.rawValue) devices in namespace \(delivery.namespace) (source \(delivery.source) was removed)"
            )
        }
        let key = "\(delivery.namespace)\u{0}\(source.name)"
        if let cached = providers[key], cached.source == source { return cached }
        let task: Task<any PushProvider, any Error>
        if let pending = making[key], pending.source == source {
            task = pending.task
        } else {
            let secret = try sources.secret(of: source)
            let factory = self.factory
            task = Task { try await factory(source, secret) }
            making[key] = (source, task)
        }
        let provider: any PushProvider
        do {
            provider = try await task.value
        } catch {
            if making[key]?.source == source { making[key] = nil }
            throw Unavailable(reason: "push source \(source.name) cannot be used: \(error)")
        }
        let isCurrent = making[key]?.source == source
        if isCurrent { making[key] = nil }
        // Another delivery waiting for the same provider installed it already.
        if providers[key]?.source == source { return (source, provider) }
        if isCurrent || making[key] == nil {
            if let old = providers[key] { retired.append(old.provider) }
            providers[key] = (source, provider)
        } else {
            // The source was configured again meanwhile: this provider serves this delivery, then is closed.
            retired.append(provider)
        }
        return (source, provider)
    }

    /// Closes every provider's connections.
    func shutdown() async {
        let all = retired + providers.values.map(\.provider)
        providers.removeAll()
        retired.removeAll()
        for provider in all { try? await provider.shutdown() }
    }

    /// No source can take the delivery: it fails for good.
    struct Unavailable: Error, CustomStringConvertible {
        var reason: String
        var description: String { reason }
    }
}
