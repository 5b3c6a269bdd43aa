import Foundation
import PushTesting
import Testing

/// The Grafana dashboard in Docs/grafana asks Prometheus only for metrics a running server exports: each name in
/// its queries is in `/metrics` after a day's kind of traffic (logins, a form pushed to a browser, a live stream).
@Suite struct DashboardTests {
    static let dashboard = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Docs/grafana/muster-dashboard.json")

    /// Every `muster_…` name in the dashboard's queries, by panel title.
    static func queriedMetrics() throws -> [(panel: String, metric: String)] {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: dashboard)) as? [String: Any]
        let panels = try #require(json?["panels"] as? [[String: Any]])
        let name = try Regex("muster_[a-z_]+")
        return try panels.flatMap { panel -> [(String, String)] in
            let title = panel["title"] as? String ?? "?"
            let targets = try #require(panel["targets"] as? [[String: Any]], "panel \(title) has no queries")
            return targets.flatMap { target in
                (target["expr"] as? String ?? "").matches(of: name).map { (title, String($0.output[0].substring!)) }
            }
        }
    }

    @Test func everyPanelHasAQueryAndEveryMetricItAsksForIsExported() async throws {
        let queried = try Self.queriedMetrics()
        #expect(Set(queried.map(\.panel)).count >= 12, "\(queried)")

        let stage = try await WebPushStage.start()
        let server = stage.server
        defer { Task { await stage.endpoint.stop() } }
        try await stage.cli(["users", "add", "joe"])
        try await stage.register("joe", device: "laptop", stage.endpoint.subscribe())
        _ = try await stage.send(to: ["joe"], title: "Shift")
        try await eventually("the push to reach the endpoint") { stage.endpoint.receivedCount == 1 }

        let token = try await server.login("ada", password: "secret-ada")
        var exported: Set<String> = []
        try await eventually("the push's outcome in /metrics") {
            let text = try await server.send("GET", "metrics", token: token).text
            exported = Set(
                text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map {
                    String($0.prefix { $0 != "{" && $0 != " " })
                })
            return exported.contains("muster_push_deliveries_total")
        }
        for (panel, metric) in queried {
            #expect(exported.contains(metric), "panel \"\(panel)\" asks for \(metric), which /metrics does not export")
        }
        #expect(await server.stop() == 0)
    }
}
