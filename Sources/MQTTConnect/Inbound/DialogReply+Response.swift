import Forms
import Foundation
import MusterWire

/// A reply turned into the response object Muster validates, and the reply members it did not use.
public struct ReplyResponse: Sendable, Hashable {
    /// The response, ready for `Payload.validate(response:)`.
    public var response: ResponseObject
    /// Reply members that are neither a value field's id nor a member Muster reads elsewhere (iPhoneID, GPS…):
    /// the device's own additions, ignored; sorted.
    public var ignoredMembers: [String]
}

extension DialogReply {
    /// Rebuilds the response object for `payload`, the form of the DialogMessage this reply answers.
    ///
    /// Each value field takes the picked choice (`musterValue` under `musterField`), else the reply's member of
    /// its id converted as the widget sends it (a Switch's "True"/"False", a number typed as text, a Slider's
    /// fraction for an integer field rounded), else — when
    /// the member is absent or empty text — the field's default, else null; `submitValue` is the picked button's
    /// value, else 0. The values are not checked here: validate the response against the payload.
    public func response(answering payload: Payload, responder: Responder) -> ReplyResponse {
        var values: [String: JSONValue] = [:]
        for field in payload.valueFields {
            guard let id = field.id else { continue }
            if id == choiceField, let choiceValue {
                values[id] = choiceValue
            } else if let sent = members[id], !sent.isNull, sent != "" {
                values[id] = Self.converted(sent, for: field)
            } else {
                values[id] = field.initialValue ?? .null
            }
        }
        let ids = Set(payload.valueFields.compactMap(\.id))
        let ignored = members.keys.filter { !ids.contains($0) && !DevicePublication.knownMembers.contains($0) }
        let response = ResponseObject(
            responseTopic: payload.responseTopic ?? "", submitValue: submitValue ?? 0, responder: responder,
            values: values, state: payload.state)
        return ReplyResponse(response: response, ignoredMembers: ignored.sorted())
    }

    /// The value as Muster's field expects it, when the widget sent it in another form; else unchanged.
    static func converted(_ value: JSONValue, for field: Field) -> JSONValue {
        switch (field.kind, value) {
        case (.checkbox, .string(let text)):
            switch text.lowercased() {
            case "true": return true
            case "false": return false
            default: return value
            }
        case (.inputInteger, .string(let text)), (.inputReal, .string(let text)):
            let digits = text.trimmingCharacters(in: .whitespaces)
            if let integer = JSONNumber(integerDigits: digits) { return .number(integer) }
            guard let number = Double(digits), number.isFinite else { return value }
            return .number(number)
        case (.inputInteger(let number), .number(let sent))
        where sent.double.isFinite && DialogMapping.Builder.widget(field, number) == .slider:
            // Seed 001's Slider is continuous (0…1, default 0.5): it sends the fraction it shows, so an integer
            // field sent as one takes the nearest whole number.
            return .number(sent.double.rounded())
        default:
            return value
        }
    }
}
