import EventLogTesting
import Foundation
import MQTTTesting
import Testing

extension MQTTEndToEndTests {
    /// The phone played by another implementation of MQTT than Muster's own: mosquitto's command-line clients
    /// (`mosquitto_sub` receives the DialogMessage, `mosquitto_pub` publishes the reply with QoS 1), so a
    /// misreading of the protocol shared by Muster's client and the tests' phone would show here.
    @Suite(.serialized) struct MQTTCommandLinePhoneEndToEndTests {
        static let form = """
            {"responseTopic": "/mqtt/cli", "fields": [
              {"id": "name", "type": "inputString", "label": "Your name"},
              {"type": "footerButton", "buttonLabel": "Send", "value": 1}
            ]}
            """

        /// `mosquitto_sub` or `mosquitto_pub` as the phone's user, with its debug lines (`-d`) in `output`.
        static func client(
            _ tool: String, _ arguments: [String], stage: MQTTStage, clientId: String, output: URL
        ) throws -> ChildProcess {
            let executable = "/usr/bin/\(tool)"
            try #require(
                FileManager.default.isExecutableFile(atPath: executable),
                "\(executable) is missing: Tools/install-deps installs mosquitto-clients")
            // Line-buffered (`stdbuf -oL`): written to a file, the debug lines would wait in stdio's buffer until
            // the client exits, and the SUBACK could not be waited for.
            return try ChildProcess(
                "/usr/bin/stdbuf",
                [
                    "-oL", executable, "-d", "-h", "127.0.0.1", "-p", String(stage.broker.port), "-u", "phone", "-P",
                    "phone-secret",
                    "-i", clientId, "-q", "1",
                ] + arguments, stdout: output.path, stderr: output.path + ".err")
        }

        /// Waits (bounded) until `file` holds `text`; the file's text.
        static func wait(for text: String, in file: URL, seconds: Double = 20) async throws -> String {
            let deadline = ContinuousClock.now + .seconds(seconds)
            while true {
                let written = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
                if written.contains(text) { return written }
                try #require(ContinuousClock.now < deadline, "\(file.lastPathComponent) never said \(text): \(written)")
                try await Task.sleep(for: .milliseconds(50))
            }
        }

        @Test func mosquittosOwnClientsReceiveTheFormAndAnswerIt() async throws {
            try await MQTTStage.with { stage in
                let received = stage.work.url.appendingPathComponent("mosquitto_sub.out")
                let subscriber = try Self.client(
                    "mosquitto_sub", ["-t", MQTTStage.inTopic, "-C", "1", "-W", "60"], stage: stage,
                    clientId: "joe-cli-sub", output: received)
                _ = try await Self.wait(for: "received SUBACK", in: received)

                let sent = try await stage.server.run(
                    ["send", "--to", "joe", "--title", "Roll call", "--body", "Who is here?", "--json", Self.form]
                        + stage.server.data)
                try #require(sent.status == 0, "\(sent)")
                let messageId = try #require((try sent.json()["messageIds"] as? [String])?.first)
                #expect(ChildProcess.exitCode(await subscriber.waitForExit()) == 0, "one message, then exit")
                let lines = try String(contentsOf: received, encoding: .utf8).split(separator: "\n")
                #expect(lines.contains { $0.contains("sending PUBACK") }, "QoS 1: the phone acknowledged it")
                let json = try #require(lines.last { $0.hasPrefix("{") }, "\(lines)")
                let message = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
                let dialog = try #require(message["DialogMessage"] as? [String: Any], "\(json)")
                #expect(dialog["Maintitle"] as? String == "Roll call")
                let option = try #require((dialog["Options"] as? [[String: Any]])?.first, "\(json)")
                var reply = try #require(option["ReplyObject"] as? [String: Any], "\(json)")
                reply["name"] = "Joe"
                reply["iPhoneID"] = MQTTStage.deviceId

                let published = stage.work.url.appendingPathComponent("mosquitto_pub.out")
                let text = String(decoding: try JSONSerialization.data(withJSONObject: reply), as: UTF8.self)
                let publisher = try Self.client(
                    "mosquitto_pub", ["-t", MQTTStage.outTopic, "-m", text], stage: stage, clientId: "joe-cli-pub",
                    output: published)
                #expect(ChildProcess.exitCode(await publisher.waitForExit()) == 0)
                #expect(try String(contentsOf: published, encoding: .utf8).contains("received PUBACK"))

                let responses = try await stage.waitForEvents("ResponseReceived", count: 1)
                try #require(responses.count == 1, "the reply was answered once")
                let body = try #require(responses[0]["body"] as? [String: Any])
                #expect((body["messageId"] as? String)?.lowercased() == messageId.lowercased())
                #expect(body["deviceId"] as? String == MQTTStage.deviceId)
                let inbox = try await stage.server.run(["inbox", "--user", "joe", "--json"] + stage.server.data)
                #expect(!inbox.stdout.contains(messageId), "answered: the inbox no longer holds it")
            }
        }
    }
}
