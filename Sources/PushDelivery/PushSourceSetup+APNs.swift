import Foundation
import Muster
import MusterWire
import PushProviders

/// APNs sources: token authentication keeps the .p8 key's text as the secret; certificate authentication keeps
/// the .p12 and its password. Key id, team id, topic and service (sandbox or production) are details.
extension PushSourceSetup {
    static func prepareAPNs(_ body: PushSourceBody, endpoint: String?) throws -> Prepared {
        let topic = body.topic ?? ""
        let sandbox = body.sandbox ?? false
        var details: [PushSourceConfigured.Detail] = []
        let secret: [UInt8]
        let authentication: APNsConfiguration.Authentication
        switch (body.key, body.certificate) {
        case (let pem?, nil):
            guard body.password == nil else {
                throw PushConfigurationError(
                    "--password-stdin", "a .p8 key has no password; the password goes with --certificate")
            }
            guard let keyId = body.keyId else {
                throw PushConfigurationError("--key-id", "token authentication needs the key's 10-character id")
            }
            guard let teamId = body.teamId else {
                throw PushConfigurationError("--team-id", "token authentication needs the 10-character team id")
            }
            authentication = .token(try APNsSigningKey(pem: pem), keyId: keyId, teamId: teamId)
            details = [.init("authentication", "token"), .init("keyId", keyId), .init("teamId", teamId)]
            secret = Array(pem.utf8)
        case (nil, let base64?):
            guard body.keyId == nil, body.teamId == nil else {
                throw PushConfigurationError(
                    body.keyId != nil ? "--key-id" : "--team-id",
                    "goes with --key-file; a --certificate source has neither key id nor team id")
            }
            guard let pkcs12 = Data(base64Encoded: base64) else {
                throw PushConfigurationError("--certificate", "expected the .p12 file's bytes in base64")
            }
            let stored = APNsCertificateSecret(pkcs12: pkcs12, password: body.password ?? "")
            let identity = try stored.identity()
            authentication = .certificate(identity)
            details = [.init("authentication", "certificate")]
            if let leaf = identity.certificateChain.first {
                let expires = Date(timeIntervalSince1970: TimeInterval(leaf.notValidAfter))
                details.append(.init("certificateExpires", expires.formatted(.iso8601)))
            }
            secret = try stored.encoded()
        case (nil, nil), (.some, .some):
            throw PushConfigurationError(
                "--key-file",
                "give a .p8 key (--key-file with --key-id and --team-id) or a .p12 certificate (--certificate with --password-stdin), one of the two"
            )
        }
        _ = try APNsConfiguration(
            authentication: authentication, topic: topic, sandbox: sandbox,
            endpoint: endpoint.flatMap { URL(string: $0) })
        details += [.init("topic", topic), .init("sandbox", String(sandbox))]
        return Prepared(kind: .apns, details: details, endpoint: endpoint, secret: secret)
    }

    static func apnsProvider(
        for source: PushSourceConfigured, secret: [UInt8], options: ProviderConnectionOptions
    ) async throws -> any PushProvider {
        let authentication: APNsConfiguration.Authentication
        if source.detail("authentication") == "certificate" {
            authentication = .certificate(try APNsCertificateSecret(decoding: secret).identity())
        } else {
            authentication = .token(
                try APNsSigningKey(pem: String(decoding: secret, as: UTF8.self)),
                keyId: source.detail("keyId") ?? "", teamId: source.detail("teamId") ?? "")
        }
        let configuration = try APNsConfiguration(
            authentication: authentication, topic: source.detail("topic") ?? "",
            sandbox: source.detail("sandbox") == "true", endpoint: source.endpoint.flatMap { URL(string: $0) })
        return await APNsProvider(configuration, options: options)
    }
}

/// What the secret store keeps for certificate authentication: the PKCS#12 bytes and the password that opens them.
struct APNsCertificateSecret: Codable {
    var pkcs12: Data
    var password: String

    init(pkcs12: Data, password: String) {
        self.pkcs12 = pkcs12
        self.password = password
    }

    init(decoding secret: [UInt8]) throws {
        do {
            self = try JSONDecoder().decode(Self.self, from: Data(secret))
        } catch {
            throw PushConfigurationError("--certificate", "the stored certificate cannot be read; add the source again")
        }
    }

    func identity() throws -> APNsClientIdentity {
        try APNsClientIdentity(pkcs12: Array(pkcs12), password: password)
    }

    func encoded() throws -> [UInt8] { Array(try JSONEncoder().encode(self)) }
}
