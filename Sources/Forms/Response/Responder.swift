import MusterWire

/// Who answered, as recorded in their push target: the response object's `username`, `deviceId` and `deviceName`.
public struct Responder: Sendable, Hashable {
    /// The name the person logged in with.
    public var username: String
    /// A token that uniquely identifies the device.
    public var deviceId: String
    /// A human-readable name of the device.
    public var deviceName: String

    /// Creates a responder.
    public init(username: String, deviceId: String, deviceName: String) {
        self.username = username
        self.deviceId = deviceId
        self.deviceName = deviceName
    }
}

extension ResponseObject {
    /// Creates a response object answered by `responder`.
    public init(
        responseTopic: String, submitValue: Int, responder: Responder, values: [String: JSONValue],
        state: JSONValue? = nil
    ) {
        self.init(
            responseTopic: responseTopic, submitValue: submitValue, username: responder.username,
            deviceId: responder.deviceId, deviceName: responder.deviceName, values: values, state: state)
    }
}
