import Foundation
import MQTT
import MQTTTesting
import Testing

extension MQTTEndToEndTests {
    /// The bridge's client id is its persistent session at the broker: a second connection with the same id (another
    /// Muster left at the default `muster`) takes that session from it, over and over, and messages are lost. The
    /// server says so in its log, with what to do.
    @Suite(.serialized) struct MQTTClientIdEndToEndTests {
        @Test func anotherConnectionWithTheServersClientIdIsLoggedAsTakingItsSession() async throws {
            try await MQTTStage.with { stage in
                // Another client with serve's default client id.
                let other = try await MQTTTesting.MQTTDevice(
                    stage.broker.configuration(user: "muster", clientID: "muster"))
                let deadline = ContinuousClock.now + .seconds(60)
                var logged: String?
                while logged == nil {
                    logged = stage.server.running.stderr.split(separator: "\n").map(String.init).first {
                        $0.contains("another connection took this server's session")
                    }
                    if logged != nil { break }
                    guard ContinuousClock.now < deadline else { break }
                    try await Task.sleep(for: .milliseconds(100))
                }
                await other.close()
                let line = try #require(logged, "the server's log: \(stage.server.running.stderr.suffix(3000))")
                #expect(line.contains(#"client id "muster""#), "\(line)")
                #expect(line.contains("Give each server its own --mqtt-client-id"), "\(line)")
            }
        }
    }
}
