import MusterWire

/// Reads typed properties out of one JSON object, recording a `FormError` for each property of the wrong type.
struct PropertyReader {
    let properties: [String: JSONValue]
    let path: String
    private(set) var problems: [FormError] = []

    init(_ properties: [String: JSONValue], path: String) {
        self.properties = properties
        self.path = path
    }

    /// The property, treating an explicit `null` as absent.
    func value(_ key: String) -> JSONValue? {
        guard let value = properties[key], !value.isNull else { return nil }
        return value
    }

    mutating func report(_ key: String, _ rule: FormRule, _ message: String) {
        problems.append(FormError(path: "\(path).\(key)", rule: rule, message: message))
    }

    mutating func string(_ key: String, required: Bool = false) -> String? {
        guard let value = value(key) else {
            if required { report(key, .missingProperty, "is required") }
            return nil
        }
        guard let text = value.stringValue else {
            report(key, .wrongType, "must be a string, not \(value.kindName)")
            return nil
        }
        return text
    }

    mutating func number(_ key: String) -> Double? {
        guard let value = value(key) else { return nil }
        guard let number = value.doubleValue else {
            report(key, .wrongType, "must be a number, not \(value.kindName)")
            return nil
        }
        return number
    }

    mutating func integer(_ key: String, required: Bool = false) -> Int? {
        guard let value = value(key) else {
            if required { report(key, .missingProperty, "is required") }
            return nil
        }
        guard let integer = value.intValue else {
            report(key, value.doubleValue == nil ? .wrongType : .notInteger, "must be an integer, not \(value)")
            return nil
        }
        return integer
    }

    /// An integer of at least 1, such as a limit an answer must be able to meet (a `maxSizeK` of 0 would refuse
    /// every recording).
    mutating func positiveInteger(_ key: String) -> Int? {
        guard let integer = integer(key) else { return nil }
        guard integer >= 1 else {
            report(key, .outOfRange, "must be at least 1, not \(integer)")
            return nil
        }
        return integer
    }

    mutating func bool(_ key: String) -> Bool? {
        guard let value = value(key) else { return nil }
        guard let flag = value.boolValue else {
            report(key, .wrongType, "must be true or false, not \(value.kindName)")
            return nil
        }
        return flag
    }

    /// A font size: the seed writes the default as the string "18" and the examples as numbers.
    mutating func size(_ key: String) -> Double? {
        guard let value = value(key) else { return nil }
        if let number = value.doubleValue, number > 0 { return number }
        if let text = value.stringValue, let number = Double(text), number > 0 { return number }
        report(key, .wrongType, "must be a positive font size, not \(value)")
        return nil
    }

    mutating func word<Word: RawRepresentable & CaseIterable>(_ key: String, as type: Word.Type) -> Word?
    where Word.RawValue == String {
        guard let text = string(key) else { return nil }
        guard let word = Word(rawValue: text) else {
            let allowed = Word.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            report(key, .notAllowed, "\"\(text)\" is not one of \(allowed)")
            return nil
        }
        return word
    }

    /// An RGB colour `#rrggbb`.
    mutating func colour(_ key: String) -> String? {
        guard let text = string(key) else { return nil }
        guard RGBColour.isValid(text) else {
            report(key, .badColour, "\"\(text)\" is not an RGB colour like \"#ff0000\"")
            return nil
        }
        return text
    }

    /// A location in either of the seed's two forms.
    mutating func location(_ key: String) -> MapPoint? {
        guard let value = value(key) else { return nil }
        guard let point = MapPoint(json: value) else {
            report(
                key, .badLocation,
                "must be {\"longitude\": x, \"latitude\": y} or a GeoJSON Point with longitude in -180...180 and latitude in -90...90"
            )
            return nil
        }
        return point
    }
}
