extension Payload {
    /// Checks the payload against seed 000: one error per problem; unknown types and ignored defaults are warnings.
    public func validate() -> ValidationReport {
        var report = ValidationReport(errors: problems)
        if let responseTopic {
            if !ResponseTopic.isValid(responseTopic) {
                report.errors.append(
                    FormError(
                        path: "payload.responseTopic", rule: .badTopic,
                        message:
                            "\"\(responseTopic)\" is not of the form /a/b/c (leading slash, non-empty segments, no "
                            + "+ or #: MQTT wildcards cannot be published on)"))
            }
        } else if !problems.contains(where: { $0.rule == .notJSON || $0.path == "payload.responseTopic" }) {
            report.errors.append(FormError(path: "payload.responseTopic", rule: .missingTopic, message: "is required"))
        }
        var seenIDs: [String: Int] = [:]
        var seenButtons: [Int: Int] = [:]
        for field in fields {
            field.check(into: &report)
            if let id = field.id, field.type != nil {
                if let first = seenIDs[id] {
                    report.errors.append(
                        FormError(
                            path: field.path, rule: .duplicateID,
                            message: "id \"\(id)\" is already used by fields[\(first)]"))
                } else {
                    seenIDs[id] = field.index
                }
            }
            for value in field.buttonValues {
                if let first = seenButtons[value] {
                    report.errors.append(
                        FormError(
                            path: field.path, rule: .duplicateButtonValue,
                            message: "button value \(value) is already used by fields[\(first)]"))
                } else {
                    seenButtons[value] = field.index
                }
            }
        }
        return report
    }
}
