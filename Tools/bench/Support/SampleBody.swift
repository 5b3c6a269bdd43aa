import EventLog
import Foundation
import Synchronization

/// The JSON body every scenario writes: a form submission padded to an exact size, without single
/// quotes so PostgreSQL takes it as a literal unchanged.
struct SampleBody: Codable, Sendable {
    struct Answer: Codable, Sendable {
        var field: String
        var value: String
    }

    var formId: String
    var userId: String
    var submittedAt: String
    var answers: [Answer]
    var note: String

    /// The body text for sequence number `n`, exactly `size` bytes long (when `size` allows it).
    static func text(_ n: Int, size: Int) -> String {
        let head =
            "{\"formId\":\"form-\(n % 97)\",\"userId\":\"user-\(n % 100_003)\",\"submittedAt\":\"2026-01-01T12:00:00Z\","
            + "\"answers\":[{\"field\":\"mood\",\"value\":\"good\"},{\"field\":\"rating\",\"value\":\"\(n % 5 + 1)\"},"
            + "{\"field\":\"comment\",\"value\":\"submitted from the field app\"}],\"note\":\""
        let tail = "\"}"
        let padding = max(0, size - head.utf8.count - tail.utf8.count)
        return head + String(repeating: "x", count: padding) + tail
    }

    /// An event carrying a body like `n`'s; types cycle through a few names so the indexes see variety.
    static func event(_ n: Int, size: Int) -> NewEvent {
        NewEvent(type: types[n % types.count], body: body(n, size: size), actor: "bench")
    }

    /// The body of `n % 1,024`, made once per size: formatting a body costs more than appending it (more than half
    /// of the log builder's time went into `text`), and no server formats the bodies it is sent.
    static func body(_ n: Int, size: Int) -> EventBody {
        let pool = pools.withLock { pools in
            if let pool = pools[size] { return pool }
            let pool = (0..<1024).map { EventBody.json(text($0, size: size)) }
            pools[size] = pool
            return pool
        }
        return pool[n % pool.count]
    }

    private static let pools = Mutex<[Int: [EventBody]]>([:])

    static let types = ["FormSubmitted", "ResponseReceived", "PayloadSent", "LocationUpdated", "UserRegistered"]
}
