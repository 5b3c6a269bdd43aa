import MusterWire

extension Field {
    /// Adds this field's problems to `report`.
    func check(into report: inout ValidationReport) {
        report.errors += problems
        guard let type else {
            if let typeName {
                report.warnings.append(
                    FormError(
                        path: path, rule: .unknownType,
                        message: "type \"\(typeName)\" is not a known field type; ignored"
                            + (FieldType.nearest(to: typeName).map { " (did you mean \"\($0.rawValue)\"?)" } ?? "")))
            } else if !problems.contains(where: { $0.path.hasSuffix(".type") }) {
                report.errors.append(FormError(path: "\(path).type", rule: .missingType, message: "is required"))
            }
            return
        }
        if type.requiresID, id == nil, json["id"] == nil || json["id"] == .null {
            report.errors.append(
                FormError(path: "\(path).id", rule: .missingID, message: "is required on a \(type.rawValue) field"))
        }
        if id == "" {
            report.errors.append(FormError(path: "\(path).id", rule: .missingID, message: "must not be empty"))
        }
        if !type.takesDefault, let raw = json["default"], !raw.isNull {
            report.warnings.append(
                FormError(
                    path: "\(path).default", rule: .defaultIgnored, message: "a \(type.rawValue) field takes no default"
                ))
        }
        report.errors += kindErrors()
    }

    private func error(_ property: String, _ rule: FormRule, _ message: String) -> FormError {
        FormError(path: "\(path).\(property)", rule: rule, message: message)
    }

    private func kindErrors() -> [FormError] {
        switch kind {
        case .date(let field), .datetime(let field):
            guard let value = field.defaultValue else { return [] }
            let valid = field.includesTime ? ISODate.isDateTime(value) : ISODate.isDate(value)
            let form = field.includesTime ? "date-time like \"1991-04-20T09:30-07:00\"" : "date like \"1991-04-20\""
            return valid ? [] : [error("default", .badDate, "\"\(value)\" is not an ISO \(form)")]
        case .droplist(let field), .radioButtons(let field):
            return choiceErrors(field)
        case .inputInteger(let field), .inputReal(let field):
            return numberErrors(field)
        case .document(let field):
            guard let media = field.flavor?.media, !field.url.isEmpty, !media.isDocumentName(field.url) else {
                return []
            }
            return [
                error(
                    "url", .badDocumentName,
                    "\"\(field.url)\" is not a \(media.rawValue) document name like \"\(media.prefix)<uuid>\"")
            ]
        default:
            return []
        }
    }

    private func choiceErrors(_ field: ChoiceField) -> [FormError] {
        guard let value = field.defaultValue else { return [] }
        let allowed = field.values.returnable
        if case .simple = field.values, value.stringValue == nil {
            return [error("default", .defaultNotInValues, "must be one of the string values, not \(value)")]
        }
        guard !allowed.isEmpty, !allowed.contains(value) else { return [] }
        let list = allowed.map(\.description).joined(separator: ", ")
        return [error("default", .defaultNotInValues, "\(value) is not one of the values [\(list)]")]
    }

    private func numberErrors(_ field: NumberField) -> [FormError] {
        var errors: [FormError] = []
        if field.isInteger {
            for (key, value) in [("minValue", json["minValue"]), ("maxValue", json["maxValue"])] {
                if let value, value.doubleValue != nil, value.intValue == nil {
                    errors.append(error(key, .notInteger, "must be an integer, not \(value)"))
                }
            }
        }
        guard field.minValue < field.maxValue else {
            errors.append(
                error(
                    "minValue", .badRange,
                    "minValue \(JSONValue.number(field.minValue)) must be less than maxValue \(JSONValue.number(field.maxValue))"
                ))
            return errors
        }
        if let value = field.defaultValue {
            if field.isInteger, value.rounded() != value {
                errors.append(error("default", .notInteger, "must be an integer, not \(JSONValue.number(value))"))
            }
            if !(field.minValue...field.maxValue).contains(value) {
                errors.append(
                    error(
                        "default", .outOfRange,
                        "\(JSONValue.number(value)) is outside \(JSONValue.number(field.minValue))...\(JSONValue.number(field.maxValue))"
                    ))
            }
        }
        return errors
    }
}
