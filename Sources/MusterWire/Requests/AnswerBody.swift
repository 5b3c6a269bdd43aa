import Foundation

/// The body of a response to a message or to a request template (`POST …/response`).
public struct AnswerBody: Sendable, Hashable, Codable {
    /// The answering device; it must be one of the user's.
    public var deviceId: String
    /// The answering device's name; the server uses the registered one when nil.
    public var deviceName: String?
    /// The `value` of the button clicked; nil for the form's own Submit button (0).
    public var submitValue: Int?
    /// One value per field `id`, as a JSON object (the server refuses anything else, naming `values`).
    public var values: JSONValue
    /// Where the device was, when the form or the sender wants it.
    public var location: GeoPoint?
    /// The client's id for this answer: sending it again (a retry after a lost connection) answers with the
    /// response recorded the first time instead of recording another one or refusing it as answered.
    public var responseId: UUID?

    /// Creates an answer from its parts.
    public init(
        deviceId: String, deviceName: String? = nil, submitValue: Int? = nil, values: JSONValue,
        location: GeoPoint? = nil, responseId: UUID? = nil
    ) {
        self.deviceId = deviceId
        self.deviceName = deviceName
        self.submitValue = submitValue
        self.values = values
        self.location = location
        self.responseId = responseId
    }
}
