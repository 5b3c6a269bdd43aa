import Foundation
import Muster
import MusterClient

extension Counters {
    /// `GET /api/v1/counters` (administrators).
    func run(on session: ServerSession) async throws {
        try session.requireNamespace(namespace)
        let entries = try await session.call { try await $0.counters(area: area) }
        let counters = try entries.map { try JSONDecoder().decode(RuleCounters.Counter.self, from: $0.jsonData()) }
        try Self.print(counters, json: json)
    }
}

extension Quota {
    /// `GET /api/v1/quota/{user}` (administrators).
    func run(on session: ServerSession) async throws {
        try session.requireNamespace(namespace)
        let answer = try await session.call { try await $0.quota(user: user, date: date) }
        try Self.print(try JSONDecoder().decode(RuleCounters.QuotaReport.self, from: answer.jsonData()), json: json)
    }
}
