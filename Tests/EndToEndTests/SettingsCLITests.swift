import EventLogTesting
import Foundation
import Testing

@Suite struct SettingsCLITests {
    @Test func thePushSizeLimitSettingIsKeptAndASendAboveItIsStillSent() async throws {
        let work = try TemporaryDirectory("settings-cli")
        defer { work.remove() }
        let data = ["--data", work.url.appendingPathComponent("data").path]
        #expect(try await MusterProcess.run(["users", "add", "joe"] + data).status == 0)
        let set = try await MusterProcess.run(["settings", "set", "pushSizeLimit", "300"] + data)
        #expect(try set.json()["value"] as? String == "300")
        let bad = try await MusterProcess.run(["settings", "set", "pushSizeLimit", "ten"] + data)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("pushSizeLimit takes a number of bytes"))
        let label = String(repeating: "y", count: 400)
        let payload = #"{"responseTopic":"/a/b","fields":[{"type":"text","label":"\#(label)"}]}"#
        let send = try await MusterProcess.run(
            ["send", "--to", "joe", "--title", "t", "--body", "b"] + data + [payload])
        #expect(send.status == 0, "\(send)")
        #expect(try send.json()["recipients"] as? [String] == ["joe"])
        let list = try await MusterProcess.run(["settings", "list", "--json"] + data)
        let entries = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]]
        #expect(entries?.first { $0["key"] as? String == "pushSizeLimit" }?["isDefault"] as? Bool == false)
        #expect(entries?.first { $0["key"] as? String == "pushSizeLimit" }?["defaultValue"] as? String == "4096")
        // The table shows a set value's default beside it, and marks a default one.
        let table = try await MusterProcess.run(["settings", "list"] + data)
        let rows = table.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        #expect(rows.first == ["SETTING", "VALUE", "DEFAULT"], "\(table)")
        #expect(rows.contains(["pushSizeLimit", "300", "4096"]), "\(table)")
        #expect(rows.contains(["traceLogging", "false", "(default)"]), "\(table)")

        let reset = try await MusterProcess.run(["settings", "reset", "pushSizeLimit"] + data)
        #expect(reset.status == 0, "\(reset)")
        #expect(try reset.json()["value"] as? String == "4096")
        #expect(try reset.json()["isDefault"] as? Bool == true)
        let unknown = try await MusterProcess.run(["settings", "reset", "pushLimit"] + data)
        #expect(unknown.status == 2, "\(unknown)")
        #expect(unknown.stderr.contains("pushLimit"), "\(unknown)")
    }
}
