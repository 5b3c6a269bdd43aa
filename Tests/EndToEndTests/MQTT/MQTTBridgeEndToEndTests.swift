import EventLogTesting
import Foundation
import MQTT
import MQTTTesting
import Testing

extension MQTTEndToEndTests {
    /// `muster serve --mqtt`: a real mosquitto broker, a real server, and an independent MQTT client acting as Joe's
    /// phone running the MQTT Connect app (seed 001).
    @Suite(.serialized) struct MQTTBridgeEndToEndTests {
        typealias Stage = MQTTStage

        static let form = """
            {"responseTopic": "/mqtt/roll", "state": {"shift": 3}, "fields": [
              {"id": "name", "type": "inputString", "label": "Your name"},
              {"id": "agree", "type": "checkbox", "checkboxLabel": "I am here"},
              {"type": "footerButton", "buttonLabel": "Send", "value": 1}
            ]}
            """

        @Test func aFormReachesThePhoneAsADialogMessageAndItsReplyAnswersTheMessage() async throws {
            let stage = try await Stage.start()
            do {
                let sent = try await stage.server.run(
                    ["send", "--to", "joe", "--title", "Roll call", "--body", "Are you here?", "--json", Self.form]
                        + stage.server.data)
                try #require(sent.status == 0, "\(sent)")
                let messageId = try #require((try sent.json()["messageIds"] as? [String])?.first)

                let received = try await stage.nextOnPhone()
                let dialog = try #require(received["DialogMessage"] as? [String: Any])
                #expect(dialog["Maintitle"] as? String == "Roll call")
                #expect(dialog["Subtitle"] as? String == "Are you here?")
                let inputs = try #require(dialog["InputFields"] as? [[String: Any]])
                #expect(inputs.map { $0["Key"] as? String } == ["name", "agree"])
                #expect(inputs.map { $0["Type"] as? String } == ["TextField", "Switch"])
                let option = try #require((dialog["Options"] as? [[String: Any]])?.first)
                #expect(option["Label"] as? String == "Send")
                var reply = try #require(option["ReplyObject"] as? [String: Any])

                // The app publishes the option's ReplyObject with the input values and its identity beside it.
                reply["name"] = "Joe"
                reply["agree"] = "True"
                reply["iPhoneID"] = "9A093D8F"
                let text = String(decoding: try JSONSerialization.data(withJSONObject: reply), as: UTF8.self)
                try await stage.phone.publish(text, to: Stage.outTopic)

                let responses = try await stage.waitForEvents("ResponseReceived", count: 1)
                try #require(responses.count == 1, "the reply was answered once")
                let response = try #require(
                    (responses[0]["body"] as? [String: Any])?["response"] as? [String: Any]
                        ?? responses[0]["body"] as? [String: Any])
                let flat = String(decoding: try JSONSerialization.data(withJSONObject: response), as: UTF8.self)
                #expect(flat.contains(#""name":"Joe""#), "\(flat)")
                #expect(flat.contains(#""agree":true"#), "\(flat)")
                #expect(flat.contains(#""submitValue":1"#), "the Send button's value: \(flat)")
                let body = try #require(responses[0]["body"] as? [String: Any])
                #expect((body["messageId"] as? String)?.lowercased() == messageId.lowercased())
                #expect(body["deviceId"] as? String == "9A093D8F")
                let inbox = try await stage.server.run(["inbox", "--user", "joe", "--json"] + stage.server.data)
                #expect(!inbox.stdout.contains(messageId), "answered: the inbox no longer holds it: \(inbox.stdout)")
                let data = try await stage.events("DeviceDataReported")
                #expect(data.count == 1)

                // Published again (a QoS 1 redelivery): recorded once, answered once.
                try await stage.phone.publish(text, to: Stage.outTopic)
                try await stage.phone.publish(#"{"iPhoneID":"9A093D8F","Battery":50}"#, to: Stage.outTopic)
                #expect(try await stage.waitForEvents("DeviceDataReported", count: 2).count == 2)
                #expect(try await stage.events("ResponseReceived").count == 1)
            } catch {
                await stage.stop()
                throw error
            }
            await stage.stop()
        }

        @Test func aFormLargerThanTheNamespacesPushSizeLimitStillReachesThePhoneWhole() async throws {
            let stage = try await Stage.start()
            do {
                let long = String(repeating: "Read this before you answer. ", count: 300)  // ~8.7 KB, over 4,096
                let payload =
                    #"{"responseTopic":"/mqtt/long","fields":[{"type":"text","label":"\#(long)"},"#
                    + #"{"id":"ok","type":"checkbox","checkboxLabel":"Read"}]}"#
                let sent = try await stage.server.run(
                    ["send", "--to", "joe", "--title", "Long", "--body", "Read it", "--json", payload]
                        + stage.server.data)
                try #require(sent.status == 0, "\(sent)")
                let dialog = try #require(try await stage.nextOnPhone()["DialogMessage"] as? [String: Any])
                #expect((dialog["Comment"] as? String)?.count == long.count)
                #expect((dialog["InputFields"] as? [[String: Any]])?.first?["Key"] as? String == "ok")
            } catch {
                await stage.stop()
                throw error
            }
            await stage.stop()
        }

        /// iOS ranging judges how close a beacon is (`proximity`, CLProximity) from more than one signal strength: a
        /// beacon rule's `maximum_proximity` takes the phone's own judgement. Here a faint -90 dBm, which alone
        /// reads as far, is a beacon the phone finds near: the rule fires.
        @Test func aBeaconRuleTakesThePhonesOwnProximity() async throws {
            let stage = try await Stage.start()
            do {
                let ada = try await stage.server.login("ada", password: "secret-ada")
                let put = try await stage.server.send(
                    "PUT", "api/v1/beacons/counter", token: ada,
                    json:
                        #"{"proximity_uid":"F2A74FC4-7625-44DB-9B08-CB7E130B2029","major":1,"rules_actions":[{"id":"close","rule":{"trigger":"on_entry","maximum_proximity":"near"},"action":{"notify_user":"At the counter"}}]}"#
                )
                try #require(put.status == 201, "\(put.text)")
                try await stage.phone.publish(
                    #"{"iPhoneID":"9A093D8F","Beacons":[{"uuid":"F2A74FC4-7625-44DB-9B08-CB7E130B2029","major":1,"minor":9,"rssi":-90,"proximity":2,"accuracy":1.8}]}"#,
                    to: Stage.outTopic)
                let evaluated = try await stage.waitForEvents("RuleEvaluated", count: 1)
                let decision = try #require(evaluated.first?["body"] as? [String: Any], "\(evaluated)")
                #expect(decision["fired"] as? Bool == true, "\(decision)")
                let sighted = try await stage.events("BeaconSighted")
                #expect((sighted.first?["body"] as? [String: Any])?["proximity"] as? String == "near", "\(sighted)")
            } catch {
                await stage.stop()
                throw error
            }
            await stage.stop()
        }

        @Test func gpsFromThePhoneIntoAGeofenceFiresItsRule() async throws {
            let stage = try await Stage.start()
            do {
                let ada = try await stage.server.login("ada", password: "secret-ada")
                let put = try await stage.server.send(
                    "PUT", "api/v1/geofences/office", token: ada,
                    json:
                        #"{"lat":47.9942,"lng":7.8397,"radius":0.1,"rules_actions":[{"id":"welcome","rule":{"trigger":"on_entry"},"action":{"notify_user":"Welcome"}}]}"#
                )
                try #require(put.status == 201, "\(put.text)")
                // The seed's own sensor message, GPS included.
                try await stage.phone.publish(
                    #"{"iPhoneID":"9A093D8F","iPhoneName":"Cedalo iPhone","Model":"iPhone8,4","QRContent":"cedalo.com","Proximity":false,"GPS":{"Altitude":269.8218,"Latitude":47.9942,"Longitude":7.8397},"Battery":50}"#,
                    to: Stage.outTopic)
                let transitions = try await stage.waitForEvents("AreaTransition", count: 1)
                #expect(transitions.count == 1)
                #expect(try await stage.events("LocationReported").count == 1)
                #expect(try await stage.waitForEvents("RuleEvaluated", count: 1).count >= 1)
                let status = try await stage.server.send("GET", "api/v1/mqtt/status", token: ada)
                #expect(status.status == 200, "\(status.text)")
                #expect((status.object["counts"] as? [String: Any])?["recorded"] as? Int == 1)
                #expect((status.object["state"] as? String)?.hasPrefix("connected") == true, "\(status.text)")
                #expect(!status.text.contains("bridge-secret"))
            } catch {
                await stage.stop()
                throw error
            }
            await stage.stop()
        }
    }
}
