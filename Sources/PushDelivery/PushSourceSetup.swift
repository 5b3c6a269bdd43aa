import Foundation
import Muster
import MusterWire
import PushProviders

/// Turns what an operator gives for a push source (files, a password, a subject) into what is stored — public
/// details for the log, a secret for the secret store — and a stored source back into a provider. The CLI and
/// the HTTP edge both configure sources through this, so both refuse the same bad input with the same words.
public enum PushSourceSetup {
    /// What to store for a source: public details, the provider's address override, and the secret.
    public struct Prepared: Sendable {
        public var kind: PushSourceConfigured.Kind
        public var details: [PushSourceConfigured.Detail]
        public var endpoint: String?
        public var secret: [UInt8]
    }

    /// Checks `body` and prepares what to store; throws `PushConfigurationError` naming the argument at fault.
    /// A Web Push source gets a new VAPID key pair here.
    public static func prepare(_ body: PushSourceBody) throws -> Prepared {
        let endpoint = try body.endpoint.map(checkedEndpoint)
        try refuseMembers(of: body)
        switch body.kind {
        case .apns: return try prepareAPNs(body, endpoint: endpoint)
        case .fcm: return try prepareFCM(body, endpoint: endpoint)
        case .webpush: return try prepareWebPush(body, endpoint: endpoint)
        }
    }

    /// The provider for a stored source and its secret.
    public static func provider(
        for source: PushSourceConfigured, secret: [UInt8], options: ProviderConnectionOptions
    ) async throws -> any PushProvider {
        switch source.kind {
        case .apns: try await apnsProvider(for: source, secret: secret, options: options)
        case .fcm: try await fcmProvider(for: source, secret: secret, options: options)
        case .webpush: try webPushProvider(for: source, secret: secret, options: options)
        }
    }

    /// `--endpoint`: an absolute `https:` or `http:` URL with a host.
    static func checkedEndpoint(_ text: String) throws -> String {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["https", "http"].contains(scheme),
            url.host?.isEmpty == false
        else {
            throw PushConfigurationError(
                "--endpoint",
                "expected an absolute https:// (or http://) URL with a host, not \(String(reflecting: text))")
        }
        return text
    }

    /// A member given for another kind of source is refused rather than silently dropped.
    private static func refuseMembers(of body: PushSourceBody) throws {
        let given: [(argument: String, isSet: Bool, kind: PushSourceConfigured.Kind)] = [
            ("--topic", body.topic != nil, .apns), ("--sandbox", body.sandbox != nil, .apns),
            ("--key-file", body.key != nil, .apns), ("--key-id", body.keyId != nil, .apns),
            ("--team-id", body.teamId != nil, .apns), ("--certificate", body.certificate != nil, .apns),
            ("--password-stdin", body.password != nil, .apns),
            ("--service-account", body.serviceAccount != nil, .fcm), ("--subject", body.subject != nil, .webpush),
        ]
        if let stray = given.first(where: { $0.isSet && $0.kind.rawValue != body.kind.rawValue }) {
            throw PushConfigurationError(
                stray.argument, "applies to \(stray.kind.rawValue) sources only, not to a \(body.kind.rawValue) source")
        }
    }
}
