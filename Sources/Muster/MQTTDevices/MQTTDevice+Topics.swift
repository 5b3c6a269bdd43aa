/// Each MQTT device's two topics are its own, across every namespace: the broker is shared by all of them, and the
/// bridge tells devices apart by topic alone. A device publishing on another's topic would be taken for that device
/// (its replies answered as that person's); one receiving on another's would get that person's forms or answers.
extension MQTTDevice {
    /// The refusal of registering `self` while `devices` are registered, or nil when its topics are free. Its own
    /// earlier registration (the same namespace, user and device id) is no conflict.
    func topicConflict(among devices: [MQTTDevice]) -> MusterError? {
        if subscribeTopic == publishTopic {
            return MusterError(
                .invalidArgument,
                "token and publishTopic are both \(String(reflecting: publishTopic)): Muster would take the forms it "
                    + "publishes to the device for messages from it; give the device two topics",
                field: "token")
        }
        let others = devices.filter { !$0.isSameDevice(as: self) }
        for other in others {
            let holder = other.described(toNamespace: namespace)
            if other.publishTopic == publishTopic {
                return conflict("publishTopic", publishTopic, "is already the publish topic of \(holder)")
            }
            if other.subscribeTopic == publishTopic {
                return conflict("publishTopic", publishTopic, "is where Muster publishes to \(holder) (its token)")
            }
            if other.subscribeTopic == subscribeTopic {
                return conflict(
                    "token", subscribeTopic,
                    "is already where Muster publishes to \(holder): both would get each "
                        + "other's forms")
            }
            if other.publishTopic == subscribeTopic {
                return conflict(
                    "token", subscribeTopic,
                    "is the publish topic of \(holder): this device would receive what that "
                        + "one sends")
            }
        }
        return nil
    }

    /// The same device: namespace, user and device id.
    public func isSameDevice(as other: MQTTDevice) -> Bool {
        namespace == other.namespace && user == other.user && deviceId == other.deviceId
    }

    /// The device named as far as a caller of `namespace` may know it.
    public func described(toNamespace namespace: String) -> String {
        guard self.namespace == namespace else { return "a device of another namespace" }
        return "device \(String(reflecting: deviceId)) of user \(user)"
    }

    private func conflict(_ field: String, _ topic: String, _ problem: String) -> MusterError {
        MusterError(
            .conflict,
            "\(field) \(String(reflecting: topic)) \(problem); each MQTT device needs topics no other device uses",
            field: field)
    }
}
