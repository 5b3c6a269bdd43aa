import Foundation
import Muster
import MusterWire
import PushProviders

/// FCM sources: the service-account file is the secret; its project and address are details.
extension PushSourceSetup {
    static func prepareFCM(_ body: PushSourceBody, endpoint: String?) throws -> Prepared {
        guard let text = body.serviceAccount else {
            throw PushConfigurationError(
                "--service-account", "an FCM source needs the Google service-account JSON file from Firebase")
        }
        let secret = Array(text.utf8)
        let account = try ServiceAccount(json: Data(secret))
        return Prepared(
            kind: .fcm,
            details: [.init("projectId", account.projectId), .init("clientEmail", account.clientEmail)],
            endpoint: endpoint, secret: secret)
    }

    static func fcmProvider(
        for source: PushSourceConfigured, secret: [UInt8], options: ProviderConnectionOptions
    ) async throws -> any PushProvider {
        let configuration = FCMConfiguration(
            serviceAccount: try ServiceAccount(json: Data(secret)),
            endpoint: source.endpoint.flatMap { URL(string: $0) })
        return await FCMProvider(configuration, options: options)
    }
}
