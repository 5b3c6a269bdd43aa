/// A user of the test broker: a password and the topics the ACL lets it read and write.
public struct MQTTBrokerUser: Sendable, Hashable {
    public var name: String
    public var password: String
    /// Topic filters the user may subscribe to and receive from.
    public var read: [String]
    /// Topic filters the user may publish to.
    public var write: [String]

    public init(name: String, password: String, read: [String] = [], write: [String] = []) {
        self.name = name
        self.password = password
        self.read = read
        self.write = write
    }

    /// A user that may read and write every topic.
    public static func everything(name: String, password: String) -> MQTTBrokerUser {
        MQTTBrokerUser(name: name, password: password, read: ["#"], write: ["#"])
    }

    /// Its lines of a mosquitto ACL file.
    var aclLines: [String] {
        ["user \(name)"] + read.map { "topic read \($0)" } + write.map { "topic write \($0)" } + [""]
    }
}
