import EventLogTesting
import Foundation
import _CryptoExtras

/// A fresh Google service-account key file with a new 2048-bit RSA key, its `token_uri` pointing where a test
/// says (the local `FCMServer`).
public struct ServiceAccountTestFile: Sendable {
    /// The file's text, as the Firebase console downloads it.
    public let json: Data
    public let projectId: String
    public let clientEmail: String
    /// The private key as the file holds it (PKCS#8 PEM), to check it never shows in a reason.
    public let privateKeyPEM: String
    /// The public half in PEM, for the token endpoint to check assertions.
    public let publicKeyPEM: String

    /// A new file, its key made on a thread of its own: generating a 2048-bit RSA key takes long enough that tests
    /// doing it on the cooperative pool starved the in-process servers of other tests (a token exchange on loopback
    /// ran out of its 8 s in a full run).
    public static func generate(projectId: String, tokenURI: URL, clientEmail: String? = nil) async throws -> Self {
        try await onOwnThread { try Self(projectId: projectId, tokenURI: tokenURI, clientEmail: clientEmail) }
    }

    public init(projectId: String, tokenURI: URL, clientEmail: String? = nil) throws {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        self.projectId = projectId
        self.clientEmail = clientEmail ?? "muster-push@\(projectId).iam.gserviceaccount.com"
        privateKeyPEM = key.pkcs8PEMRepresentation
        publicKeyPEM = key.publicKey.pemRepresentation
        let fields: [String: String] = [
            "type": "service_account",
            "project_id": projectId,
            "private_key_id": UUID().uuidString.lowercased(),
            "private_key": privateKeyPEM,
            "client_email": self.clientEmail,
            "client_id": "1234567890",
            "auth_uri": "https://accounts.google.com/o/oauth2/auth",
            "token_uri": tokenURI.absoluteString,
        ]
        json = try JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])
    }
}
