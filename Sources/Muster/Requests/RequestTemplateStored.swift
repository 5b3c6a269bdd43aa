import EventLog
import Foundation
import MusterWire

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

extension RequestTemplate {
    /// A stored template as the wire shows it: the payload as JSON; `warnings` only for the answer of a put.
    public init(_ stored: RequestTemplateStored, warnings: [String] = []) throws {
        self.init(
            name: stored.name, title: stored.title, body: stored.body, responseTopic: stored.responseTopic,
            payload: try JSONValue(json: Data(stored.payload)), warnings: warnings.isEmpty ? nil : warnings)
    }
}
