import Foundation

/// What a submitted form publishes on its `responseTopic`: the response object of seed 000.
public struct ResponseObject: Sendable, Hashable, Codable {
    /// The payload's topic.
    public var responseTopic: String
    /// The value of the button clicked; 0 for the app's own Submit button.
    public var submitValue: Int
    /// The responder's username.
    public var username: String
    /// The responding device's id.
    public var deviceId: String
    /// The responding device's name.
    public var deviceName: String
    /// One member per field that produced input and has an `id`; null means no data entered.
    public var values: [String: JSONValue]
    /// The payload's `state`, unaltered; nil when the payload had none (an explicit null is `.null`).
    public var state: JSONValue?

    /// Creates a response object from its parts.
    public init(
        responseTopic: String, submitValue: Int, username: String, deviceId: String, deviceName: String,
        values: [String: JSONValue], state: JSONValue? = nil
    ) {
        self.responseTopic = responseTopic
        self.submitValue = submitValue
        self.username = username
        self.deviceId = deviceId
        self.deviceName = deviceName
        self.values = values
        self.state = state
    }

    private enum CodingKeys: String, CodingKey {
        case responseTopic, submitValue, username, deviceId, deviceName, values, state
    }

    /// Decodes the seed's shape; an explicit `"state": null` is kept as `.null`, an absent one is nil.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        responseTopic = try container.decode(String.self, forKey: .responseTopic)
        submitValue = try container.decode(Int.self, forKey: .submitValue)
        username = try container.decode(String.self, forKey: .username)
        deviceId = try container.decode(String.self, forKey: .deviceId)
        deviceName = try container.decode(String.self, forKey: .deviceName)
        values = try container.decode([String: JSONValue].self, forKey: .values)
        state = container.contains(.state) ? try container.decode(JSONValue.self, forKey: .state) : nil
    }

    /// Encodes the seed's shape; `state` only when the payload had one.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(responseTopic, forKey: .responseTopic)
        try container.encode(submitValue, forKey: .submitValue)
        try container.encode(username, forKey: .username)
        try container.encode(deviceId, forKey: .deviceId)
        try container.encode(deviceName, forKey: .deviceName)
        try container.encode(values, forKey: .values)
        if let state { try container.encode(state, forKey: .state) }
    }

    /// Decodes a response object from JSON text.
    public init(json data: Data) throws {
        self = try JSONDecoder().decode(ResponseObject.self, from: data)
    }

    /// The compact JSON text, keys sorted: the bytes a ResponseReceived event stores.
    public func jsonData() -> Data {
        // A number that is not finite made the encoder fail, and the text empty: kept so.
        guard values.values.allSatisfy(\.isFinite), state?.isFinite ?? true else {
            return (try? MusterJSON.encoder().encode(self)) ?? Data()
        }
        // Keys in sorted order, as `MusterJSON.encoder()` writes them; `state` only when the payload had one.
        var writer = JSONWriter()
        writer.writeObject(
            [
                ("deviceId", .text(deviceId)), ("deviceName", .text(deviceName)),
                ("responseTopic", .text(responseTopic)), ("state", state.map(Member.json)),
                ("submitValue", .integer(submitValue)), ("username", .text(username)),
                ("values", .json(.object(values))),
            ].compactMap { key, value in value.map { (key: key, value: $0) } }
        ) { writer, member in
            switch member {
            case .text(let text): writer.write(text)
            case .integer(let integer): writer.write(integer)
            case .json(let value): writer.write(value)
            }
        }
        return Data(writer.bytes)
    }

    /// A member's value, as its type writes it.
    private enum Member {
        case text(String)
        case integer(Int)
        case json(JSONValue)
    }
}
