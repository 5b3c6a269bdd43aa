import EventLogTesting
import Foundation
import Testing

/// `muster send` reports, per recipient's MQTT device and field, what its DialogMessage cannot carry — on a data
/// directory and over HTTP; the message stays in the inbox for the recipient's other devices.
@Suite struct SendNotCarriedCLITests {
    static let mqtt = ["--platform", "mqtt", "--token", "phones/joe/in", "--publish-topic", "phones/joe/out"]
    /// A name the DialogMessage carries, a date and a recording it cannot.
    static let form = """
        {"responseTopic": "/mqtt/roll", "fields": [
          {"id": "name", "type": "inputString", "label": "Your name"},
          {"id": "when", "type": "date"},
          {"id": "voice", "type": "audio"},
          {"type": "footerButton", "buttonLabel": "Send", "value": 1}
        ]}
        """

    /// The `notCarried` entries of a send's JSON answer.
    static func notCarried(_ answer: [String: Any]) throws -> [[String: Any]] {
        try #require(answer["notCarried"] as? [[String: Any]], "notCarried: \(answer)")
    }

    @Test func aSendOnADataDirectoryReportsWhatEachMQTTDeviceCannotBeShown() async throws {
        let work = try TemporaryDirectory("send-not-carried")
        defer { work.remove() }
        let data = ["--data", work.url.appendingPathComponent("data").path]
        for user in ["joe", "ann"] { #expect(try await MusterProcess.run(["users", "add", user] + data).status == 0) }
        let registered = try await MusterProcess.run(
            ["devices", "register", "--user", "joe", "--device-id", "9A093D8F", "--device-name", "iPhone"] + Self.mqtt
                + data)
        try #require(registered.status == 0, "\(registered)")

        let sent = try await MusterProcess.run(
            ["send", "--to", "joe,ann", "--title", "T", "--body", "B", "--json", Self.form] + data)
        try #require(sent.status == 0, "\(sent)")
        let reports = try Self.notCarried(try sent.json())
        #expect(reports.map { $0["user"] as? String } == ["joe", "joe"], "ann has no MQTT device: \(reports)")
        #expect(reports.map { $0["deviceId"] as? String } == ["9A093D8F", "9A093D8F"])
        let fields = reports.compactMap { $0["field"] as? [String: Any] }
        #expect(fields.map { $0["index"] as? Int } == [1, 2])
        #expect(fields.map { $0["id"] as? String } == ["when", "voice"])
        #expect(fields.map { $0["type"] as? String } == ["date", "audio"])
        #expect((reports[0]["reason"] as? String)?.contains("date") == true, "\(reports)")

        // The message is not cut: it waits whole in joe's inbox for his other devices.
        let messageId = try #require((try sent.json()["messageIds"] as? [String])?.first)
        let inbox = try await MusterProcess.run(["inbox", "joe", "--json"] + data)
        #expect(inbox.stdout.contains(messageId), "\(inbox)")

        // A form the DialogMessage carries whole reports nothing.
        let whole = try await MusterProcess.run(
            [
                "send", "--to", "joe", "--title", "T", "--body", "B", "--json",
                #"{"responseTopic": "/r", "fields": [{"type": "text", "label": "Hi"}]}"#,
            ]
                + data)
        try #require(whole.status == 0, "\(whole)")
        #expect(try Self.notCarried(try whole.json()).isEmpty)
    }

    @Test func aSendOverHTTPReportsWhatTheSendersMQTTDeviceCannotBeShown() async throws {
        let server = try await ServerProcess()
        let work = try TemporaryDirectory("send-not-carried-remote")
        defer { work.remove() }
        let ada = Terminal(work.url.appendingPathComponent("ada/session.json"))
        try await ada.login(server.base, "ada", password: "secret-ada")
        let registered = try await ada.run(
            ["devices", "register", "--device-id", "ADA-PHONE", "--device-name", "iPhone"] + Self.mqtt)
        try #require(registered.status == 0, "\(registered)")

        let sent = try await ada.run(["send", "--to", "ada", "--title", "T", "--body", "B", "--json", Self.form])
        try #require(sent.status == 0, "\(sent)")
        let reports = try Self.notCarried(try sent.json())
        #expect(reports.map { $0["deviceId"] as? String } == ["ADA-PHONE", "ADA-PHONE"], "\(reports)")
        #expect(reports.map { $0["user"] as? String } == ["ada", "ada"])
        #expect(reports.compactMap { ($0["field"] as? [String: Any])?["id"] as? String } == ["when", "voice"])
    }
}
