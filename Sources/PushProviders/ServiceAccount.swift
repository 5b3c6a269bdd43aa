import Foundation
import JWTKit

/// A Google service account's key file, as the Firebase console gives it: who the sender is and the RSA key it
/// signs its token requests with.
public struct ServiceAccount: Sendable {
    /// The Firebase project the pushes go through (`project_id`).
    public let projectId: String
    /// The account's address, the `iss` of its assertions (`client_email`).
    public let clientEmail: String
    /// Where assertions are exchanged for access tokens (`token_uri`).
    public let tokenURI: URL
    let privateKey: Insecure.RSA.PrivateKey

    /// Reads the JSON key file (`--service-account`); every error names the field at fault.
    public init(json: Data) throws {
        let object: [String: Any]
        do {
            guard let parsed = try JSONSerialization.jsonObject(with: json) as? [String: Any] else {
                throw PushConfigurationError("--service-account", "expected a JSON object")
            }
            object = parsed
        } catch let error as PushConfigurationError {
            throw error
        } catch {
            throw PushConfigurationError(
                "--service-account", "expected a Google service-account key file in JSON; this is not JSON")
        }
        func field(_ name: String) throws -> String {
            guard let value = object[name] else {
                throw PushConfigurationError("--service-account", "field \(name) is missing")
            }
            guard let text = value as? String, !text.isEmpty else {
                throw PushConfigurationError("--service-account", "field \(name) should be a non-empty string")
            }
            return text
        }
        let type = try field("type")
        guard type == "service_account" else {
            throw PushConfigurationError(
                "--service-account", "field type is \"\(type)\"; expected \"service_account\"")
        }
        projectId = try field("project_id")
        clientEmail = try field("client_email")
        let uri = try field("token_uri")
        guard let url = URL(string: uri), let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http",
            url.host?.isEmpty == false
        else {
            throw PushConfigurationError("--service-account", "field token_uri should be an https URL")
        }
        tokenURI = url
        do {
            privateKey = try Insecure.RSA.PrivateKey(pem: try field("private_key"))
        } catch let error as PushConfigurationError {
            throw error
        } catch {
            throw PushConfigurationError(
                "--service-account", "field private_key should be an RSA private key (2048 bits or more) in PEM")
        }
    }
}
