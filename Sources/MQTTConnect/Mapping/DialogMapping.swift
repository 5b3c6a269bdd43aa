import Forms
import Foundation
import MusterWire

/// A message's payload translated to a DialogMessage, with every field the DialogMessage could not carry.
///
/// The rules, one per field type, are the table at the top of `Docs/mqtt.md`.
public struct DialogMapping: Sendable, Hashable {
    /// The DialogMessage to publish.
    public let message: DialogMessage
    /// The fields left out, in payload order; empty when the DialogMessage carries the whole form.
    public let uncarried: [UncarriedField]

    /// Translates a message to a DialogMessage.
    /// - Parameters:
    ///   - payload: the message's parsed form (validate it first: an invalid payload is translated as read).
    ///   - title: the message's title, the `Maintitle`.
    ///   - body: the message's body, the `Subtitle`.
    ///   - messageID: the message's id, written lower case in every option's `ReplyObject`.
    ///   - settings: the sender's tab switch, alert and flash.
    public init(
        payload: Payload, title: String?, body: String?, messageID: UUID, settings: DialogSenderSettings = .none
    ) {
        var builder = Builder(messageID: messageID.uuidString.lowercased())
        for field in payload.fields { builder.add(field) }
        let options = builder.finishOptions()
        for index in builder.inputs.indices where settings.instantSender.contains(builder.inputs[index].key) {
            builder.inputs[index].instantSender = true
        }
        message = DialogMessage(
            maintitle: title, subtitle: body, image: builder.image,
            comment: builder.comments.isEmpty ? nil : builder.comments.joined(separator: "\n"),
            inputFields: builder.inputs.isEmpty ? nil : builder.inputs, options: options,
            optionsMode: .single, switchToTab: settings.switchToTab, switchDelay: settings.switchDelay,
            alertCode: settings.alertCode, flashDuration: settings.flashDuration)
        uncarried = builder.uncarried.sorted { $0.index < $1.index }
    }

    /// Whether the DialogMessage carries every field.
    public var isComplete: Bool { uncarried.isEmpty }

    /// The keys of the input fields sent with `InstantSender: true`: a publication holding one of them and no
    /// ReplyObject is an instant value answering this message.
    public var instantKeys: Set<String> {
        Set((message.inputFields ?? []).filter { $0.instantSender == true }.map(\.key))
    }

    /// The keys of every input field the DialogMessage carries, in order.
    public var inputKeys: [String] { (message.inputFields ?? []).map(\.key) }
}

extension DialogMapping {
    /// Collects the DialogMessage's parts field by field.
    struct Builder {
        let messageID: String
        var image: String?
        var comments: [String] = []
        var inputs: [DialogInputField] = []
        var buttons: [DialogOption] = []
        var choiceFields: [(field: Field, choice: ChoiceField)] = []
        var uncarried: [UncarriedField] = []

        init(messageID: String) { self.messageID = messageID }

        mutating func add(_ field: Field) {
            switch field.kind {
            case .text, .sectionLabel:
                if let text = field.label.text, !text.isEmpty { comments.append(text) }
            case .image(let picture): addImage(field, url: picture.url)
            case .inputInteger(let number), .inputReal(let number): addNumber(field, number)
            case .inputString(let text): addText(field, text)
            case .checkbox(let box): addSwitch(field, box)
            case .footerButton(let button), .inlineButton(let button):
                buttons.append(option(button.buttonLabel, [ReplyKeys.submitValue: .number(Double(button.value))]))
            case .buttonCluster(let cluster):
                if let text = field.label.text, !text.isEmpty { comments.append(text) }
                for button in cluster.buttons {
                    buttons.append(option(button.label, [ReplyKeys.submitValue: .number(Double(button.value))]))
                }
            case .radioButtons(let choice), .droplist(let choice):
                guard field.id != nil else { return uncarried.append(UncarriedField(field, reason: Self.noID)) }
                if let text = field.label.text, !text.isEmpty { comments.append(text) }
                choiceFields.append((field, choice))
            case .ignored:
                // The app ignores a missing or unknown type; so does the DialogMessage.
                break
            default:
                uncarried.append(UncarriedField(field, reason: Self.noForm(field)))
            }
        }

        /// The options: the buttons, else the first choice field's choices, else one Submit; extra choice fields
        /// are reported.
        mutating func finishOptions() -> [DialogOption] {
            if !buttons.isEmpty {
                for (field, _) in choiceFields {
                    uncarried.append(
                        UncarriedField(
                            field,
                            reason:
                                "the buttons take the DialogMessage's options, and a \(field.typeName ?? "choice") has no other form"
                        ))
                }
                return buttons
            }
            guard let (field, choice) = choiceFields.first, let id = field.id else {
                return [option("Submit", [ReplyKeys.submitValue: 0])]
            }
            for (other, _) in choiceFields.dropFirst() {
                uncarried.append(
                    UncarriedField(
                        other,
                        reason: "the DialogMessage's options already carry fields[\(field.index)]; only one choice fits"
                    ))
            }
            return Self.labelledValues(choice.values).map { label, value in
                option(label, [ReplyKeys.field: .string(id), ReplyKeys.value: value])
            }
        }

        private func option(_ label: String, _ members: [String: JSONValue]) -> DialogOption {
            var reply = members
            reply[ReplyKeys.messageID] = .string(messageID)
            return DialogOption(label: label, replyObject: reply)
        }

        private static func labelledValues(_ values: ChoiceField.Values) -> [(String, JSONValue)] {
            switch values {
            case .simple(let strings): strings.map { ($0, .string($0)) }
            case .labelled(let entries): entries.map { ($0.label, $0.value) }
            }
        }
    }
}
