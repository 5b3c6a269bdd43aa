import MQTT
import Testing

@Suite struct MQTTConfigurationTests {
    @Test func plainURLTakesHostAndPort() throws {
        let configuration = try MQTTConfiguration(url: "mqtt://broker.example:1884", clientID: "muster")
        #expect(configuration.host == "broker.example")
        #expect(configuration.port == 1884)
        #expect(configuration.tls == nil)
    }

    @Test func defaultPortsFollowTheScheme() throws {
        #expect(try MQTTConfiguration(url: "mqtt://127.0.0.1", clientID: "m").port == 1883)
        let tls = MQTTTLS(caFile: "/etc/ssl/ca.pem")
        let secure = try MQTTConfiguration(url: "mqtts://broker.example", clientID: "m", tls: tls)
        #expect(secure.port == 8883)
        #expect(secure.tls == tls)
    }

    @Test(arguments: [
        ("http://broker:1883", "scheme http"),
        ("mqtt://:1883", "names no host"),
        ("mqtt://broker:1883/topic", "path or query"),
        ("mqtts://broker:8883", "expected a CA file"),
        ("broker:1883", "expected mqtt://host:port"),
    ])
    func badURLsNameTheURLAndWhatWasExpected(url: String, expected: String) {
        #expect {
            try MQTTConfiguration(url: url, clientID: "muster")
        } throws: { error in
            let text = "\(error)"
            return (error as? MQTTError)?.code == .configuration && text.contains(expected)
                && (text.contains(url) || url == "mqtt://:1883") && text.contains("expected")
        }
    }

    @Test func aPasswordInTheURLIsRefusedWithoutRepeatingIt() {
        #expect {
            try MQTTConfiguration(url: "mqtt://muster:hunter2@broker:1883", clientID: "muster")
        } throws: { error in
            "\(error)".contains("user name or password") && !"\(error)".contains("hunter2")
        }
    }

    @Test func theDescriptionNeverShowsThePassword() {
        let configuration = MQTTConfiguration(
            host: "broker", clientID: "muster", userName: "muster", password: "hunter2")
        #expect("\(configuration)".contains("user muster"))
        #expect(!"\(configuration)".contains("hunter2"))
    }

    @Test func outOfRangeValuesAreRefusedByName() {
        let configuration = MQTTConfiguration(host: "broker", port: 70_000, clientID: "muster")
        #expect {
            try MQTTClient(configuration) { _ in }
        } throws: { error in
            "\(error)".contains("port 70000") && "\(error)".contains("expected 1…65535")
        }
        let keepalive = MQTTConfiguration(host: "broker", clientID: "muster", keepalive: 3)
        #expect {
            try MQTTClient(keepalive) { _ in }
        } throws: { error in
            "\(error)".contains("keepalive 3") && "\(error)".contains("expected 0 or 5…65535")
        }
    }
}
