import MusterWire

extension Payload {
    /// Checks a response object against this payload; one error per problem, each naming the value's field id.
    public func validate(response: ResponseObject) -> [FormError] {
        var errors: [FormError] = []
        if response.responseTopic != (responseTopic ?? "") {
            errors.append(
                FormError(
                    path: "responseTopic", rule: .mismatch,
                    message: "\"\(response.responseTopic)\" is not the payload's \"\(responseTopic ?? "")\""))
        }
        if response.state != state {
            errors.append(FormError(path: "state", rule: .mismatch, message: "must be the payload's state, unaltered"))
        }
        let buttons = buttonValues
        if buttons.isEmpty, response.submitValue != 0 {
            errors.append(
                FormError(
                    path: "submitValue", rule: .badSubmitValue,
                    message:
                        "must be 0 (the app's Submit button) when the payload has no buttons, not \(response.submitValue)"
                ))
        } else if !buttons.isEmpty, !buttons.contains(response.submitValue) {
            let list = buttons.map(String.init).joined(separator: ", ")
            errors.append(
                FormError(
                    path: "submitValue", rule: .badSubmitValue,
                    message: "\(response.submitValue) is not a declared button value [\(list)]"))
        }
        let fieldsByID = Dictionary(valueFields.compactMap { field in field.id.map { ($0, field) } }) { first, _ in
            first
        }
        for key in response.values.keys.sorted() where fieldsByID[key] == nil {
            errors.append(
                FormError(path: "values.\(key)", rule: .unexpectedValue, message: "is not the id of an input field"))
        }
        for field in valueFields {
            guard let id = field.id else { continue }
            if let error = field.check(answer: response.values[id] ?? .null) { errors.append(error) }
        }
        return errors
    }
}
