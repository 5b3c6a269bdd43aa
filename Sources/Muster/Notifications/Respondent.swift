import EventLog
import Foundation

/// Who answers and how: everything of an answer but its values.
public struct Respondent: Sendable {
    public var user: String
    public var deviceId: String
    /// The device's name; nil takes the name its registration gave it (or its id).
    public var deviceName: String?
    /// Which submit button was pressed.
    public var submitValue: Int
    /// Where the device was when it submitted.
    public var location: Notifications.Location?
    public var namespace: String
    /// Who the event names as its actor; nil names `user`.
    public var actor: String?
    /// The client's id for this answer: the same id again returns the answer recorded with it.
    public var responseId: UUID?

    public init(
        user: String, deviceId: String, deviceName: String? = nil, submitValue: Int = 0,
        at location: Notifications.Location? = nil, namespace: String = Names.defaultNamespace, actor: String? = nil,
        responseId: UUID? = nil
    ) {
        self.user = user
        self.deviceId = deviceId
        self.deviceName = deviceName
        self.submitValue = submitValue
        self.location = location
        self.namespace = namespace
        self.actor = actor
        self.responseId = responseId
    }
}
