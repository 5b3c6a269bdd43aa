import Foundation
import PushProviders
import PushTesting
import Testing

@Suite struct FCMServiceAccountTests {
    static let file = try! ServiceAccountTestFile(
        projectId: "muster-test", tokenURI: URL(string: "https://oauth2.googleapis.com/token")!)

    /// The test file with `change` applied to its fields.
    static func edited(_ change: (inout [String: Any]) -> Void) throws -> Data {
        var fields = try #require(try JSONSerialization.jsonObject(with: file.json) as? [String: Any])
        change(&fields)
        return try JSONSerialization.data(withJSONObject: fields)
    }

    @Test func aServiceAccountFileLoads() throws {
        let account = try ServiceAccount(json: Self.file.json)
        #expect(account.projectId == "muster-test")
        #expect(account.clientEmail == Self.file.clientEmail)
        #expect(account.tokenURI.absoluteString == "https://oauth2.googleapis.com/token")
    }

    @Test func aFileThatIsNotJSONNamesTheArgument() {
        let error = #expect(throws: PushConfigurationError.self) {
            try ServiceAccount(json: Data("-----BEGIN PRIVATE KEY-----".utf8))
        }
        #expect(error?.argument == "--service-account")
        #expect(error?.message.contains("not JSON") == true)
    }

    @Test(arguments: ["private_key", "client_email", "project_id", "token_uri", "type"])
    func aMissingFieldIsNamed(field: String) throws {
        let json = try Self.edited { $0[field] = nil }
        let error = #expect(throws: PushConfigurationError.self) { try ServiceAccount(json: json) }
        #expect(error?.argument == "--service-account")
        #expect(error?.message == "field \(field) is missing")
    }

    @Test func anotherTypeOfCredentialIsRefused() throws {
        let json = try Self.edited { $0["type"] = "authorized_user" }
        let error = #expect(throws: PushConfigurationError.self) { try ServiceAccount(json: json) }
        #expect(error?.argument == "--service-account")
        #expect(error?.message.contains("expected \"service_account\"") == true)
    }

    @Test func aPrivateKeyThatIsNotRSAIsRefused() throws {
        let json = try Self.edited { $0["private_key"] = APNsTestKey().pem }
        let error = #expect(throws: PushConfigurationError.self) { try ServiceAccount(json: json) }
        #expect(error?.argument == "--service-account")
        #expect(error?.message.contains("private_key") == true)
    }

    @Test func aTokenURIThatIsNotAURLIsRefused() throws {
        let json = try Self.edited { $0["token_uri"] = "token endpoint" }
        let error = #expect(throws: PushConfigurationError.self) { try ServiceAccount(json: json) }
        #expect(error?.message.contains("token_uri") == true)
    }
}
