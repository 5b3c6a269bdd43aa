import Forms
import MusterWire

extension DialogMapping.Builder {
    /// Why an input field without an `id` is left out.
    static let noID = "it has no id to key its value by in the reply"

    /// The largest range, in steps of 1, an integer field shows as a Stepper rather than a Slider.
    static let stepperSteps = 100.0

    mutating func addImage(_ field: Field, url: String) {
        let lowered = url.lowercased()
        guard lowered.hasPrefix("https://") || lowered.hasPrefix("http://") || lowered.hasPrefix("data:image/") else {
            uncarried.append(
                UncarriedField(
                    field,
                    reason: "its url \"\(url)\" is not a web or data: URL the device can load (a Muster document?)"
                ))
            return
        }
        guard image == nil else {
            uncarried.append(
                UncarriedField(field, reason: "a DialogMessage holds one Image, and an earlier field has it"))
            return
        }
        image = url
    }

    mutating func addNumber(_ field: Field, _ number: NumberField) {
        guard let id = field.id else { return uncarried.append(UncarriedField(field, reason: Self.noID)) }
        var label = field.label.text ?? ""
        let kind = Self.widget(field, number)
        let defaultValue: JSONValue?
        if kind != .numberField {
            defaultValue = .number(number.defaultValue ?? number.minValue)
        } else {
            defaultValue = number.defaultValue.map { .string(JSONValue.number($0).description) }
            if !number.units.isEmpty { label = label.isEmpty ? number.units : "\(label) (\(number.units))" }
        }
        inputs.append(
            DialogInputField(
                label: label, key: id, type: kind, defaultValue: defaultValue, instantSender: false,
                required: !field.acceptsNull, minimumValue: number.minValue, maximumValue: number.maxValue))
    }

    /// How a number field is shown: a Stepper or Slider when it declares its range or is a slider (a Stepper for
    /// an integer of at most `stepperSteps` steps), else a NumberField.
    static func widget(_ field: Field, _ number: NumberField) -> DialogInputField.Kind {
        let declaresRange = field.json["minValue"] != nil && field.json["maxValue"] != nil
        guard declaresRange || number.flavor == .slider else { return .numberField }
        let steps = number.maxValue - number.minValue
        return number.isInteger && steps <= stepperSteps ? .stepper : .slider
    }

    mutating func addText(_ field: Field, _ text: TextInputField) {
        guard let id = field.id else { return uncarried.append(UncarriedField(field, reason: Self.noID)) }
        inputs.append(
            DialogInputField(
                label: field.label.text ?? "", key: id, type: .textField,
                defaultValue: text.defaultValue.map(JSONValue.string),
                instantSender: false, required: !field.acceptsNull))
    }

    mutating func addSwitch(_ field: Field, _ box: CheckboxField) {
        guard let id = field.id else { return uncarried.append(UncarriedField(field, reason: Self.noID)) }
        let label = [field.label.text, box.checkboxLabel].compactMap { $0 }.filter { !$0.isEmpty }
        inputs.append(
            DialogInputField(
                label: label.joined(separator: ": "), key: id, type: .toggle,
                defaultValue: .string(box.defaultValue ? "True" : "False"), instantSender: false, required: false))
    }

    /// Why a field of a type with no DialogMessage form is left out.
    static func noForm(_ field: Field) -> String {
        switch field.type {
        case .date, .datetime:
            "a DialogMessage has no date input (its inputs are text, number, slider, stepper and switch)"
        case .currentDateTime: "the app reports no time of submit; its reply carries only the option and the inputs"
        case .currentLocation: "the app's reply carries no location; GPS comes only in separate sensor messages"
        case .barcode: "a DialogMessage cannot ask for a scan in place (the QR tab publishes scans on their own)"
        case .camera, .markupImage:
            "a DialogMessage cannot ask for a picture in place (the Camera tab publishes pictures on their own)"
        case .audio: "the app records no audio"
        case .video: "the app records no video"
        case .map: "a map has no DialogMessage form"
        case .document: "a DialogMessage cannot show a document"
        case .dashboard: "a DialogMessage cannot show a dashboard"
        default: "a \(field.typeName ?? "field") has no DialogMessage form"
        }
    }
}
