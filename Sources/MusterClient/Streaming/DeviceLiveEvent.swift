import Foundation
import MusterWire

/// What the server tells a device's app (seed 004's SDK delegate messages).
public enum DeviceLiveEvent: Sendable, Hashable {
    /// The device entered an area (`event: areaEntered`): the raw event, whatever the rules decide.
    case areaEntered(AreaCrossing)
    /// The device left an area (`event: areaExited`).
    case areaExited(AreaCrossing)
    /// The device's position as the server has it (`event: positionChanged`).
    case positionChanged(PositionChange)
    /// A rule's notification or server notification URL handed to the app (`event: areaNotification`).
    case areaNotification(AreaNotification)
    /// A rule decided not to act, and why (`event: trace`, with trace logging).
    case trace(TraceMessage)

    /// Reads a device stream event; nil for an event type this client does not know (a newer server's).
    static func decode(_ event: ServerSentEvent) throws(MusterClientError) -> DeviceLiveEvent? {
        switch event.type {
        case "areaEntered": .areaEntered(try decodeData(AreaCrossing.self, event))
        case "areaExited": .areaExited(try decodeData(AreaCrossing.self, event))
        case "positionChanged": .positionChanged(try decodeData(PositionChange.self, event))
        case "areaNotification": .areaNotification(try decodeData(AreaNotification.self, event))
        case "trace": .trace(try decodeData(TraceMessage.self, event))
        default: nil
        }
    }
}
