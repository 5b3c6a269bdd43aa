import Foundation
import MusterWire

/// What the app publishes when the user answers a DialogMessage: the picked option's `ReplyObject` members with
/// the input fields' values beside them under their `Key`s, or an `InstantSender` field's value alone.
public struct DialogReply: Sendable, Hashable {
    /// The message answered (`musterMessageId`); nil for an instant value, whose message is the last
    /// DialogMessage sent to the device.
    public var messageID: UUID?
    /// The picked button's value (`musterSubmitValue`); nil when a choice or an instant value was sent.
    public var submitValue: Int?
    /// The field whose choice was picked (`musterField`).
    public var choiceField: String?
    /// The picked choice's value (`musterValue`).
    public var choiceValue: JSONValue?
    /// Every other first-level member: the input values under their keys, and whatever else the device added.
    public var members: [String: JSONValue]

    /// Creates a reply.
    public init(
        messageID: UUID? = nil, submitValue: Int? = nil, choiceField: String? = nil, choiceValue: JSONValue? = nil,
        members: [String: JSONValue] = [:]
    ) {
        self.messageID = messageID
        self.submitValue = submitValue
        self.choiceField = choiceField
        self.choiceValue = choiceValue
        self.members = members
    }

    /// Whether this is an `InstantSender` value alone, with no ReplyObject members.
    public var isInstant: Bool { messageID == nil && submitValue == nil && choiceField == nil }

    /// The message answered: the reply's own, else `lastSent`, the last DialogMessage sent to the device.
    public func messageID(orLastSent lastSent: UUID?) -> UUID? { messageID ?? lastSent }

    /// Reads a reply out of a publication's first level: one with Muster's ReplyObject members, or, without them,
    /// one with a member named as one of `inputKeys` (the Keys of the last DialogMessage sent to the device).
    static func read(_ reader: MemberReader, inputKeys: Set<String>) throws(PublicationRefusal) -> DialogReply? {
        let members = reader.members.filter { !ReplyKeys.all.contains($0.key) }
        guard reader.members.keys.contains(where: ReplyKeys.all.contains) else {
            guard members.keys.contains(where: inputKeys.contains) else { return nil }
            return DialogReply(members: members)
        }
        var reply = DialogReply(members: members)
        if let text = try reader.string(ReplyKeys.messageID) {
            guard let id = UUID(uuidString: text) else {
                throw reader.refusal(ReplyKeys.messageID, "must be a message id (a UUID), not \"\(text)\"")
            }
            reply.messageID = id
        }
        reply.submitValue = try reader.integer(ReplyKeys.submitValue)
        reply.choiceField = try reader.string(ReplyKeys.field)
        reply.choiceValue = reader.value(ReplyKeys.value)
        if reply.choiceField == nil, reply.choiceValue != nil {
            throw reader.refusal(ReplyKeys.value, "comes without \(ReplyKeys.field), the field it is a choice of")
        }
        if reply.choiceField != nil, reply.choiceValue == nil {
            throw reader.refusal(ReplyKeys.field, "comes without \(ReplyKeys.value), the choice picked")
        }
        return reply
    }
}
