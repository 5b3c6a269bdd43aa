import Crypto
import Foundation

/// The secrets of one authorization request: the PKCE verifier and its S256 challenge (RFC 7636), and the
/// `state` that ties the issuer's answer to this request. Random bytes and SHA-256 come from swift-crypto.
struct ProofKey: Sendable {
    /// 43 characters of base64url: 256 random bits, kept by the client until the code is traded.
    let verifier: String
    /// `BASE64URL(SHA256(verifier))`, sent with the authorization request.
    let challenge: String
    /// 128 random bits the issuer hands back unchanged.
    let state: String

    /// Fresh secrets for one request.
    init() {
        self.init(verifier: Self.randomText(bits: 256), state: Self.randomText(bits: 128))
    }

    /// The challenge for a given verifier (RFC 7636's example, in tests).
    init(verifier: String, state: String) {
        self.verifier = verifier
        self.challenge = Self.base64url(Data(SHA256.hash(data: Data(verifier.utf8))))
        self.state = state
    }

    /// `bits` of the system's secure random source, base64url without padding.
    static func randomText(bits: Int) -> String {
        SymmetricKey(size: SymmetricKeySize(bitCount: bits)).withUnsafeBytes { base64url(Data($0)) }
    }

    /// Base64 with the URL-safe alphabet and no padding (RFC 7636 appendix A).
    static func base64url(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
