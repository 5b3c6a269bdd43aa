import MusterWire

/// Reads typed members out of one JSON object of a device publication, refusing the first of the wrong type.
struct MemberReader {
    let members: [String: JSONValue]
    /// The object's own path, `""` on the first level.
    let path: String

    init(_ members: [String: JSONValue], path: String = "") {
        self.members = members
        self.path = path
    }

    func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func refusal(_ key: String, _ reason: String) -> PublicationRefusal {
        PublicationRefusal(member: name(key), reason: reason)
    }

    /// The member, an explicit `null` read as absent.
    func value(_ key: String) -> JSONValue? {
        guard let value = members[key], !value.isNull else { return nil }
        return value
    }

    func string(_ key: String) throws(PublicationRefusal) -> String? {
        guard let value = value(key) else { return nil }
        guard let text = value.stringValue else { throw refusal(key, "must be a string, not \(value.kindName)") }
        return text
    }

    func number(_ key: String, in range: ClosedRange<Double>? = nil) throws(PublicationRefusal) -> Double? {
        guard let value = value(key) else { return nil }
        guard let number = value.doubleValue else {
            throw refusal(key, "must be a number\(Self.describe(range)), not \(value.kindName)")
        }
        if let range, !range.contains(number) {
            throw refusal(key, "must be a number\(Self.describe(range)), not \(value)")
        }
        return number
    }

    func integer(_ key: String, in range: ClosedRange<Int>? = nil) throws(PublicationRefusal) -> Int? {
        guard let value = value(key) else { return nil }
        guard let integer = value.intValue, range?.contains(integer) ?? true else {
            let within = range.map { " in \($0.lowerBound)...\($0.upperBound)" } ?? ""
            throw refusal(key, "must be an integer\(within), not \(value)")
        }
        return integer
    }

    func bool(_ key: String) throws(PublicationRefusal) -> Bool? {
        guard let value = value(key) else { return nil }
        guard let flag = value.boolValue else { throw refusal(key, "must be true or false, not \(value.kindName)") }
        return flag
    }

    func object(_ key: String) throws(PublicationRefusal) -> MemberReader? {
        guard let value = value(key) else { return nil }
        guard let object = value.objectValue else { throw refusal(key, "must be an object, not \(value.kindName)") }
        return MemberReader(object, path: name(key))
    }

    func required<Value>(_ key: String, _ read: (String) throws(PublicationRefusal) -> Value?)
        throws(PublicationRefusal) -> Value
    {
        guard let value = try read(key) else { throw refusal(key, "is required") }
        return value
    }

    private static func describe(_ range: ClosedRange<Double>?) -> String {
        guard let range else { return "" }
        return " in \(JSONValue.number(range.lowerBound))...\(JSONValue.number(range.upperBound))"
    }
}
