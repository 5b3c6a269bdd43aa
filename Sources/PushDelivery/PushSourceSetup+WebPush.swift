import Muster
import MusterWire
import PushProviders

/// Web Push sources: the server makes the VAPID key pair; the private half is the secret, the public half a
/// detail browsers subscribe with.
extension PushSourceSetup {
    static func prepareWebPush(_ body: PushSourceBody, endpoint: String?) throws -> Prepared {
        guard let subject = body.subject else {
            throw PushConfigurationError(
                "--subject", "a Web Push source needs the VAPID subject: mailto:you@example.org or an https: URL")
        }
        try VAPID.check(subject: subject)
        let key = VAPIDKey()
        return Prepared(
            kind: .webpush, details: [.init("subject", subject), .init("publicKey", key.publicKey)],
            endpoint: endpoint, secret: key.rawPrivateKey)
    }

    static func webPushProvider(
        for source: PushSourceConfigured, secret: [UInt8], options: ProviderConnectionOptions
    ) throws -> any PushProvider {
        let key = try VAPIDKey(rawPrivateKey: secret, argument: "the stored VAPID key")
        return try WebPushProvider(key: key, subject: source.detail("subject") ?? "", options: options)
    }
}
