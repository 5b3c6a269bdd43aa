import Foundation

/// The JSON body of an APNs push: the visible alert under `aps`, Muster's notice beside it under `muster`.
///
/// `{"aps":{"alert":{"title":…,"body":…},"sound":"default","mutable-content":1},"muster":{…}}` (no `sound` for a
/// quiet alert), or for a silent push `{"aps":{"content-available":1},"muster":{…}}`.
enum APNsPayload {
    /// APNs refuses a payload over 4 KB (`PayloadTooLarge`).
    static let limit = 4096

    private struct APS: Encodable {
        struct Alert: Encodable {
            var title: String
            var body: String
        }
        var alert: Alert
        /// Nil for a quiet alert: no `sound` member.
        var sound: String?
        var mutableContent = 1

        enum CodingKeys: String, CodingKey {
            case alert, sound
            case mutableContent = "mutable-content"
        }
    }

    /// The body for `push`, its notice copied as it is (it is already JSON).
    static func body(for push: Push) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding two strings and a number cannot fail.
        let aps =
            push.silent
            ? Data(#"{"content-available":1}"#.utf8)
            : try! encoder.encode(
                APS(alert: .init(title: push.title, body: push.body), sound: push.quiet ? nil : "default"))
        return Array(#"{"aps":"#.utf8) + Array(aps) + Array(#","muster":"#.utf8) + push.notice + [UInt8(ascii: "}")]
    }

    /// Whether `notice` is a JSON object, as the app expects under `muster`.
    static func isObject(_ notice: [UInt8]) -> Bool {
        (try? JSONSerialization.jsonObject(with: Data(notice))) is [String: Any]
    }
}
