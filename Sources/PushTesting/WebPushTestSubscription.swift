import Crypto
import Foundation
import PushProviders

/// A browser's subscription JSON (`PushSubscription.toJSON()`) for an endpoint no test listens on: for
/// registering a `web` device where no push is meant to arrive.
public enum WebPushTestSubscription {
    /// A valid subscription to `endpoint` with a fresh key and auth secret.
    public static func json(endpoint: String = "https://push.example.org/send/1") -> String {
        let auth = (0..<16).map { _ in UInt8.random(in: .min ... .max) }
        // A fresh P-256 key and a 16-byte secret: valid whenever the endpoint is.
        let subscription = try! WebPushSubscription(
            endpoint: URL(string: endpoint)!, p256dh: P256.KeyAgreement.PrivateKey().publicKey, auth: auth)
        return subscription.json
    }
}
