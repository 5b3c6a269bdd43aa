import Foundation
import MusterWire

/// One message Muster publishes on a device's `SubscribeTopic`: a dialog, a settings change, or both, with the
/// first-level `SessionObject` seed 001 lets any message carry (it replaces the one the device holds).
public struct DeviceMessage: Sendable, Hashable, Codable {
    /// The dialog to show.
    public var dialogMessage: DialogMessage?
    /// The settings to change until the device disconnects.
    public var settings: DeviceSettings?
    /// The object the device attaches to everything it publishes from now on.
    public var sessionObject: JSONValue?

    /// Creates a message; every member defaults to absent.
    public init(dialogMessage: DialogMessage? = nil, settings: DeviceSettings? = nil, sessionObject: JSONValue? = nil) {
        self.dialogMessage = dialogMessage
        self.settings = settings
        self.sessionObject = sessionObject
    }

    private enum CodingKeys: String, CodingKey {
        case dialogMessage = "DialogMessage"
        case settings = "Settings"
        case sessionObject = "SessionObject"
    }

    /// The JSON text to publish: compact, keys sorted, slashes unescaped (topics and URLs read as written).
    public func jsonData() -> Data {
        // Strings, integers, booleans, finite doubles and JSONValues all encode.
        (try? MusterJSON.encoder().encode(self)) ?? Data()
    }
}
