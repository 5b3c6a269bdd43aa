import EventLog
import Foundation

/// A form a user can fill in and send without having been asked (the seed's ArsRCSRequest, listed
/// in the app's "Start" tab); storing the same name again replaces it.
public struct RequestTemplateStored: DomainEvent, Hashable, Codable {
    public static let type = "RequestTemplateStored"
    public static let schemaVersion: UInt16 = 1

    public var name: String
    public var title: String
    /// The subtitle shown under the title.
    public var body: String
    public var responseTopic: String
    /// The payload's JSON text, its `responseTopic` set to `responseTopic`.
    @JSONText public var payload: [UInt8]

    /// The audit and listing shape embeds the payload as JSON.
}
