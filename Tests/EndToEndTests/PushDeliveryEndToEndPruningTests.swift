import Foundation
import PushTesting
import Testing

/// A browser subscription its push service says is gone (410) is pruned by the running server: the device is no
/// longer listed, the log says why, and later sends make no request to it.
@Suite struct PushDeliveryEndToEndPruningTests {
    @Test func aSubscriptionAnswered410IsDroppedAndNotPushedToAgain() async throws {
        let stage = try await WebPushStage.start()
        let laptop = stage.endpoint.subscribe()
        let old = stage.endpoint.subscribe()
        try await stage.cli(["users", "add", "joe"])
        try await stage.register("joe", device: "laptop", laptop)
        try await stage.register("joe", device: "old-phone", old)
        stage.endpoint.unsubscribe(old.id)

        let first = try await stage.send(to: ["joe"], title: "Shift swap")[0]
        try await eventually("the 410 to prune joe's old phone") {
            let devices = try await stage.cli(["devices", "list", "--user", "joe", "--json"])
            let rows = try JSONSerialization.jsonObject(with: Data(devices.stdout.utf8)) as? [[String: Any]]
            return rows?.map { $0["deviceId"] as? String } == ["laptop"]
        }
        let pruned = try await stage.events("PushTargetUnregistered")
        #expect(pruned.count == 1, "\(pruned)")
        #expect(pruned.first?["deviceId"] as? String == "old-phone")
        let reason = try #require(pruned.first?["reason"] as? String)
        #expect(reason.contains("410"), "\(reason)")
        try await eventually("both deliveries of the first message to settle") {
            try await stage.deliveries(["--message", first, "--status", "pending"]).isEmpty
        }
        let firstRows = try await stage.deliveries(["--message", first])
        #expect(Set(firstRows.compactMap { $0["status"] as? String }) == ["delivered", "failed"], "\(firstRows)")
        let audit = try await stage.cli(["audit", "--user", "joe", "--json"]).jsonLines()
        let unregistered = audit.first { $0["what"] as? String == "deviceUnregistered" }
        #expect(unregistered?["reason"] as? String == reason, "\(audit)")
        #expect(audit.contains { $0["what"] as? String == "pushFailed" && $0["deviceId"] as? String == "old-phone" })
        #expect(stage.endpoint.requestCount == 2, "one push each: delivered to the laptop, 410 from the old phone")

        let second = try await stage.send(to: ["joe"], title: "Drill")[0]
        try await eventually("the second push to reach the laptop") { stage.endpoint.receivedCount == 2 }
        try await eventually("the second message's delivery to be recorded") {
            try await stage.deliveries(["--message", second, "--status", "delivered"]).count == 1
        }
        let secondRows = try await stage.deliveries(["--message", second])
        #expect(secondRows.compactMap { $0["deviceId"] as? String } == ["laptop"], "\(secondRows)")
        #expect(stage.endpoint.received.map(\.subscription) == [laptop.id, laptop.id])
        #expect(stage.endpoint.requestCount == 3, "no request to the pruned subscription")
        await stage.stop()
    }
}
