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
        switch body.kind {
        case .webpush:
            guard let subject = body.subject else {
                throw PushConfigurationError(
                    "--subject", "a Web Push source needs the VAPID subject: mailto:you@example.org or an https: URL")
            }
            try VAPID.check(subject: subject)
            let key = VAPIDKey()
            return Prepared(
                kind: .webpush, details: [.init("subject", subject), .init("publicKey", key.publicKey)],
                endpoint: endpoint, secret: key.rawPrivateKey)
        case .apns, .fcm:
            throw PushConfigurationError("kind", "\(body.kind.rawValue) sources are not available in this build yet")
        }
    }

    /// The provider for a stored source and its secret.
    public static func provider(
        for source: PushSourceConfigured, secret: [UInt8], options: ProviderConnectionOptions
    ) throws -> any PushProvider {
        switch source.kind {
        case .webpush:
            let key = try VAPIDKey(rawPrivateKey: secret, argument: "the stored VAPID key")
            return try WebPushProvider(key: key, subject: source.detail("subject") ?? "", options: options)
        case .apns, .fcm:
            throw PushConfigurationError(
                "kind", "\(source.kind.rawValue) sources are not available in this build yet")
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
}
