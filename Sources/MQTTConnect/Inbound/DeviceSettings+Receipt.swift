import MusterWire

extension DeviceSettings {
    /// Reads the `Settings` member of a device's receipt, refusing the first member of the wrong type.
    init(receipt reader: MemberReader) throws(PublicationRefusal) {
        self.init()
        if let value = reader.value(CodingKeys.subscribeTopic.rawValue) {
            guard let elements = value.arrayValue, case let topics = elements.compactMap(\.stringValue),
                topics.count == elements.count
            else {
                throw reader.refusal(
                    CodingKeys.subscribeTopic.rawValue, "must be an array of topic strings, not \(value)")
            }
            subscribeTopic = topics
        }
        publishTopic = try reader.string(CodingKeys.publishTopic.rawValue)
        onIncoming = try reader.bool(CodingKeys.onIncoming.rawValue)
        onInterval = try reader.bool(CodingKeys.onInterval.rawValue)
        intervalOnChange = try reader.bool(CodingKeys.intervalOnChange.rawValue)
        onThreshold = try reader.bool(CodingKeys.onThreshold.rawValue)
        intervalCycle = try reader.integer(CodingKeys.intervalCycle.rawValue)
        thresholdValue = try reader.number(CodingKeys.thresholdValue.rawValue)
    }
}
