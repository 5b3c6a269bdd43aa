import MusterWire

extension Field {
    /// The problem with `value` as this field's response value, if any.
    func check(answer value: JSONValue) -> FormError? {
        let path = "values.\(id ?? "")"
        if value.isNull { return nullProblem(path: path) }
        guard let message = valueProblem(value) else { return nil }
        return FormError(path: path, rule: message.rule, message: message.text)
    }

    private func nullProblem(path: String) -> FormError? {
        if acceptsNull { return nil }
        let why: String
        if case .inputInteger(let field) = kind, field.flavor == .slider {
            why = "a slider always has a value (optional is ignored)"
        } else if case .inputReal(let field) = kind, field.flavor == .slider {
            why = "a slider always has a value (optional is ignored)"
        } else if initialValue != nil {
            why = "the field has a default, so the response carries it or the user's value"
        } else {
            why = "the \(typeName ?? "") field is not optional"
        }
        return FormError(path: path, rule: .valueRequired, message: "is missing or null but \(why)")
    }

    private func valueProblem(_ value: JSONValue) -> (rule: FormRule, text: String)? {
        switch kind {
        case .audio: return documentProblem(value, .audio)
        case .camera, .markupImage: return documentProblem(value, .image)
        case .video: return documentProblem(value, .video)
        case .barcode, .inputString:
            return value.stringValue == nil ? (.wrongType, "must be a string, not \(value.kindName)") : nil
        case .checkbox:
            return value.boolValue == nil ? (.wrongType, "must be true or false, not \(value.kindName)") : nil
        case .currentDateTime: return dateProblem(value, includesTime: true)
        case .date(let field), .datetime(let field): return dateProblem(value, includesTime: field.includesTime)
        case .currentLocation, .map:
            return MapPoint(json: value) == nil
                ? (.badLocation, "\(value) is neither {\"longitude\", \"latitude\"} nor a GeoJSON Point") : nil
        case .droplist(let field), .radioButtons(let field):
            let allowed = field.values.returnable
            guard !allowed.contains(value) else { return nil }
            return (.notInValues, "\(value) is not one of [\(allowed.map(\.description).joined(separator: ", "))]")
        case .inputInteger(let field), .inputReal(let field): return numberProblem(value, field)
        default: return nil
        }
    }

    private func documentProblem(_ value: JSONValue, _ media: MediaKind) -> (rule: FormRule, text: String)? {
        guard let name = value.stringValue else {
            return (.wrongType, "must be a document name, not \(value.kindName)")
        }
        return media.isDocumentName(name)
            ? nil
            : (.badDocumentName, "\"\(name)\" is not a \(media.rawValue) document name like \"\(media.prefix)<uuid>\"")
    }

    private func dateProblem(_ value: JSONValue, includesTime: Bool) -> (rule: FormRule, text: String)? {
        guard let text = value.stringValue else { return (.wrongType, "must be an ISO string, not \(value.kindName)") }
        if includesTime ? ISODate.isDateTime(text) : ISODate.isDate(text) { return nil }
        let form = includesTime ? "date-time like \"1991-04-20T09:30-07:00\"" : "date like \"1991-04-20\""
        return (.badDate, "\"\(text)\" is not an ISO \(form)")
    }

    private func numberProblem(_ value: JSONValue, _ field: NumberField) -> (rule: FormRule, text: String)? {
        guard let number = value.doubleValue else { return (.wrongType, "must be a number, not \(value.kindName)") }
        if field.isInteger, value.intValue == nil { return (.notInteger, "\(value) is not an integer") }
        guard field.minValue > field.maxValue || (field.minValue...field.maxValue).contains(number) else {
            let range = "\(JSONValue.number(field.minValue))...\(JSONValue.number(field.maxValue))"
            return (.outOfRange, "\(value) is outside \(range)")
        }
        return nil
    }
}
