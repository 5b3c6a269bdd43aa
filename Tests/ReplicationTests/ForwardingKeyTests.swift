import Crypto
import Foundation
import NATS
import NATSTesting
import Replication
import Testing

/// A replica signs the client's address of a request it forwards; the primary believes the address only with the
/// cluster's key, for that request, and for 30 seconds.
struct ForwardingKeyTests {
    static let claim = ForwardingKey.Claim(
        address: "192.0.2.66", node: "b", method: "POST", target: "/api/v1/auth/token", time: 1_800_000_000)

    @Test func theClusterKeySignsAClaimThatAnotherKeyOrAnotherClaimDoesNotVerify() {
        let key = ForwardingKey(SymmetricKey(size: .bits256))
        let signature = key.signature(of: Self.claim)
        #expect(key.verifies(signature, of: Self.claim, now: Self.claim.time))
        #expect(!ForwardingKey(SymmetricKey(size: .bits256)).verifies(signature, of: Self.claim, now: Self.claim.time))
        var otherAddress = Self.claim
        otherAddress.address = "192.0.2.7"
        #expect(!key.verifies(signature, of: otherAddress, now: Self.claim.time), "the address is what is signed")
        var otherTarget = Self.claim
        otherTarget.target = "/api/v1/users"
        #expect(!key.verifies(signature, of: otherTarget, now: Self.claim.time), "for this request only")
        #expect(!key.verifies("not base64!", of: Self.claim, now: Self.claim.time))
    }

    @Test func printingTheKeyOrWhatHoldsItShowsNoneOfItsBits() {
        let bits = SymmetricKey(size: .bits256)
        let raw = bits.withUnsafeBytes { Array($0) }
        let forms = [Data(raw).base64EncodedString(), raw.map { String(format: "%02x", $0) }.joined()]
        struct Holder { var key: ForwardingKey? }
        let key = ForwardingKey(bits)
        for text in [String(describing: key), String(reflecting: key), String(describing: Holder(key: key))] {
            #expect(!forms.contains { text.contains($0) }, "\(text)")
            #expect(text.contains("not shown"), "\(text)")
        }
    }

    @Test func aSignatureHoldsForThirtySecondsEitherSide() {
        let key = ForwardingKey(SymmetricKey(size: .bits256))
        let signature = key.signature(of: Self.claim)
        #expect(key.verifies(signature, of: Self.claim, now: Self.claim.time + 30))
        #expect(key.verifies(signature, of: Self.claim, now: Self.claim.time - 30))
        #expect(!key.verifies(signature, of: Self.claim, now: Self.claim.time + 31), "replayed too late")
        #expect(!key.verifies(signature, of: Self.claim, now: Self.claim.time - 31))
    }

    @Test func theFirstNodeMakesTheKeyAndEveryOtherReadsIt() async throws {
        try await withNATS { cluster, first in
            let second = try await NATSConnection.connect(cluster.configuration(name: "second"))
            // Both at once: one creates, the other finds it made.
            async let a = ForwardingKey.load(first, replicas: 1)
            async let b = ForwardingKey.load(second, replicas: 1)
            let (keyA, keyB) = try await (a, b)
            let later = try await ForwardingKey.load(second, replicas: 1)
            await second.close()
            let signature = keyA.signature(of: Self.claim)
            #expect(keyB.verifies(signature, of: Self.claim, now: Self.claim.time), "both nodes hold one key")
            #expect(later.verifies(signature, of: Self.claim, now: Self.claim.time), "kept: a node starting later")
        }
    }
}
