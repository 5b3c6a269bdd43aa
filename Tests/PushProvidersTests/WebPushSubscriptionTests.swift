import Crypto
import Foundation
import PushProviders
import Testing

@Suite struct WebPushSubscriptionTests {
    static let p256dh = WebPushEncryptionTests.uaPublic
    static let auth = WebPushEncryptionTests.auth

    static func json(endpoint: String = "https://push.example/send/abc", p256dh: String = p256dh, auth: String = auth)
        -> String
    {
        #"{"endpoint":"\#(endpoint)","expirationTime":null,"keys":{"p256dh":"\#(p256dh)","auth":"\#(auth)"}}"#
    }

    /// The field a subscription is refused for.
    static func refusal(_ json: String) -> String? {
        do {
            _ = try WebPushSubscription(json: json)
            return nil
        } catch {
            return error.argument
        }
    }

    @Test func aBrowsersSubscriptionIsRead() throws {
        let subscription = try WebPushSubscription(json: Self.json())
        #expect(subscription.endpoint.absoluteString == "https://push.example/send/abc")
        #expect(WebPushBase64URL.encode(subscription.p256dh.x963Representation) == Self.p256dh)
        #expect(subscription.auth == WebPushBase64URL.decode(Self.auth))
        #expect(subscription.expirationTime == nil)
        let again = try WebPushSubscription(json: subscription.json)
        #expect(again.endpoint == subscription.endpoint && again.auth == subscription.auth)
    }

    @Test func paddedBase64AndAnExpiryAreAccepted() throws {
        let json =
            #"{"endpoint":"https://push.example/x","expirationTime":1800000000000,"keys":{"p256dh":"\#(Self.p256dh)=","auth":"\#(Self.auth)=="}}"#
        let subscription = try WebPushSubscription(json: json)
        #expect(subscription.expirationTime == Date(timeIntervalSince1970: 1_800_000_000))
    }

    @Test(arguments: ["http://push.example/x", "ftp://push.example/x", "push.example/x", "https:///x"])
    func anEndpointMustBeHTTPS(_ endpoint: String) {
        #expect(Self.refusal(Self.json(endpoint: endpoint)) == "token.endpoint")
    }

    @Test(arguments: ["http://127.0.0.1:8080/push/1", "http://127.3.4.5/x", "http://localhost:9/x", "http://[::1]:9/x"])
    func plainHTTPIsAllowedOnLoopback(_ endpoint: String) throws {
        #expect(try WebPushSubscription(json: Self.json(endpoint: endpoint)).endpoint.absoluteString == endpoint)
    }

    @Test func aLookalikeOfLoopbackIsNotLoopback() {
        #expect(Self.refusal(Self.json(endpoint: "http://127.0.0.1.example/x")) == "token.endpoint")
    }

    @Test(arguments: [
        "AAAA",  // too short
        "not base64!",  // outside the alphabet
        WebPushBase64URL.encode([0x04] + [UInt8](repeating: 0x01, count: 64)),  // not on the curve
        WebPushBase64URL.encode([0x02] + [UInt8](repeating: 0x01, count: 64)),  // not uncompressed
    ])
    func aBadP256dhIsNamed(_ p256dh: String) {
        #expect(Self.refusal(Self.json(p256dh: p256dh)) == "token.keys.p256dh")
    }

    @Test(arguments: ["BTBZMqHH6r4Tts7J_aSI", "", "BTBZMqHH6r4Tts7J_aSIggAA", "not base64!"])
    func aBadAuthIsNamed(_ auth: String) {
        #expect(Self.refusal(Self.json(auth: auth)) == "token.keys.auth")
    }

    @Test func notJSONIsNamedAsTheToken() {
        #expect(Self.refusal("0123abcd") == "token")
        #expect(Self.refusal("") == "token")
        #expect(Self.refusal(#"["https://push.example/x"]"#) == "token")
    }

    @Test func missingOrMistypedFieldsAreNamed() {
        #expect(Self.refusal(#"{"endpoint":"https://push.example/x"}"#) == "token.keys")
        #expect(Self.refusal(#"{"endpoint":7,"keys":{"p256dh":"a","auth":"b"}}"#) == "token.endpoint")
        #expect(Self.refusal(#"{"endpoint":"https://push.example/x","keys":{"auth":"b"}}"#) == "token.keys.p256dh")
        #expect(Self.refusal(#"{"endpoint":"https://push.example/x","keys":null}"#) == "token.keys")
        #expect(Self.refusal(#"{"endpoint":null,"keys":{"p256dh":"a","auth":"b"}}"#) == "token.endpoint")
        let keys = #""keys":{"p256dh":"\#(Self.p256dh)","auth":"\#(Self.auth)"}"#
        #expect(
            Self.refusal(#"{"endpoint":"https://push.example/x","expirationTime":"soon",\#(keys)}"#)
                == "token.expirationTime")
        #expect(Self.refusal(#"{"endpoint":"https://push.example/x","expirationTime":null,\#(keys)}"#) == nil)
        #expect(Self.refusal(#"{"endpoint":"https://push.example/x",\#(keys)}"#) == nil)
    }

    @Test func theErrorSaysWhatWasExpected() throws {
        let error = try #require(throws: PushConfigurationError.self) {
            try WebPushSubscription(json: Self.json(auth: "AAAA"))
        }
        #expect(error.description == "token.keys.auth: expected 16 bytes, got 3")
    }
}
