import Crypto
import Foundation
import NATS

/// The JetStream stream that holds one namespace's log: its name, its one subject, and how it is configured.
///
/// A namespace made of letters, digits, `_` and `-` (at most 64 bytes) keeps its name: stream `MUSTER_acme`,
/// subject `muster.log.acme`. Any other name — JetStream names allow no `.`, `*`, `>`, spaces or path separators —
/// is named by the first 32 hex digits of the SHA-256 of its UTF-8, behind an `X`: `MUSTER_X3f…`, `muster.log.X3f…`.
/// A plain name cannot start with `X` followed by 32 hex digits and be 33 bytes long unless it is that digest's form,
/// so the two kinds never meet (a namespace literally named so is hashed too).
public struct NamespaceStream: Sendable, Hashable {
    /// The namespace whose log it is.
    public let namespace: String
    /// What stream name and subject end with.
    public let suffix: String

    public init(namespace: String) {
        self.namespace = namespace
        suffix = Self.suffix(of: namespace)
    }

    /// The stream's name.
    public var name: String { "MUSTER_" + suffix }
    /// The one subject its events are published to.
    public var subject: String { "muster.log." + suffix }

    /// The stream's settings: file storage, `replicas` copies, a two-minute duplicate window.
    public func configuration(replicas: Int) -> StreamConfiguration {
        StreamConfiguration(name: name, subjects: [subject], replicas: replicas, storage: .file)
    }

    static func suffix(of namespace: String) -> String {
        let utf8 = namespace.utf8
        let plain =
            !utf8.isEmpty && utf8.count <= 64
            && utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
                    true
                default: false
                }
            }
        if plain && !looksHashed(namespace) { return namespace }
        let digest = SHA256.hash(data: Array(utf8))
        return "X" + digest.prefix(16).map { String(format: "%02x", $0) }.joined()
    }

    private static func looksHashed(_ name: String) -> Bool {
        name.utf8.count == 33 && name.first == "X" && name.dropFirst().allSatisfy(\.isHexDigit)
    }
}
