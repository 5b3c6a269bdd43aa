import Forms

/// A payload field the DialogMessage cannot carry, and why, in words a sender understands.
public struct UncarriedField: Sendable, Hashable, CustomStringConvertible {
    /// The field's position in `fields`, from 0.
    public let index: Int
    /// The field's `id`, when it has one.
    public let id: String?
    /// The field's `type` as written.
    public let type: String?
    /// Why it cannot be carried.
    public let reason: String

    /// Creates a report for `field`.
    public init(_ field: Field, reason: String) {
        index = field.index
        id = field.id
        type = field.typeName
        self.reason = reason
    }

    /// `fields[4] (id "where") map: a map has no DialogMessage form`.
    public var description: String { "\(Field.pathName(index: index, id: id)) \(type ?? "?"): \(reason)" }
}

extension Field {
    /// How a report names field `index`: `fields[3] (id "cb")` or `fields[3]`.
    static func pathName(index: Int, id: String?) -> String {
        guard let id else { return "fields[\(index)]" }
        return "fields[\(index)] (id \"\(id)\")"
    }
}
