import Foundation

/// `POST /api/v1/location-requests`: ask a user's phones where they are.
public struct LocationRequestBody: Sendable, Hashable, Codable {
    public var user: String
    /// Why, for the audit.
    public var reason: String?

    public init(user: String, reason: String? = nil) {
        self.user = user
        self.reason = reason
    }
}

/// A location request recorded: its id (the deliveries' `messageId`) and the devices a silent push goes to; each
/// app answers by publishing its location (`POST /api/v1/locations`).
public struct LocationRequest: Sendable, Hashable, Codable {
    public var requestId: UUID
    public var user: String
    public var reason: String?
    public var devices: [String]

    public init(requestId: UUID, user: String, reason: String?, devices: [String]) {
        self.requestId = requestId
        self.user = user
        self.reason = reason
        self.devices = devices
    }
}
