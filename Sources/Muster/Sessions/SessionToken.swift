import Crypto
import Foundation

/// The opaque bearer tokens of a session, and the hash under which the log knows them.
enum SessionToken {
    /// Prefixes that tell the two kinds apart at a glance (and to secret scanners).
    static let accessPrefix = "mat_"
    static let refreshPrefix = "mrt_"

    /// `prefix` and 32 random bytes in base64url without padding; with `namespace`, the namespace in base64url and a
    /// dot before them, so a node serving several namespaces' logs knows which one to look the token up in.
    static func make(prefix: String, namespace: String? = nil) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let tag = namespace.map { base64URL(Data($0.utf8)) + "." } ?? ""
        return prefix + tag + base64URL(Data(bytes))
    }

    /// The namespace a token made with one names; nil for one without (every token of a server of its own).
    static func namespace(of token: String) -> String? {
        guard token.hasPrefix(accessPrefix) || token.hasPrefix(refreshPrefix),
            let dot = token.firstIndex(of: ".")
        else { return nil }
        var tag = token[token.index(token.startIndex, offsetBy: 4)..<dot]
            .replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        tag += String(repeating: "=", count: (4 - tag.count % 4) % 4)
        return Data(base64Encoded: tag).flatMap { String(data: $0, encoding: .utf8) }
    }

    private static func base64URL(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Lowercase hex SHA-256 of the token's UTF-8: all the log and the projections ever hold.
    static func hash(_ token: String) -> String {
        let digest = SHA256.hash(data: Array(token.utf8))
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for byte in digest {
            out.append(hex[Int(byte >> 4)])
            out.append(hex[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// The store's time (microseconds since 1970) in the shapes sessions need.
enum StoreTime {
    /// A lifetime in microseconds, clamped to 0…10^18 (about 31,000 years) so sums cannot overflow.
    static func micros(_ interval: TimeInterval) -> Int64 {
        let value = interval * 1_000_000
        guard !value.isNaN else { return 0 }
        return Int64(min(max(value, 0), 1e18).rounded())
    }

    static func date(_ micros: Int64) -> Date { Date(timeIntervalSince1970: Double(micros) / 1_000_000) }

    static func iso8601(_ micros: Int64) -> String {
        Timestamp.iso8601(microseconds: micros)
    }
}
