import EventLog

/// Projections that keep event bodies as their rows read them back through these.
extension ProjectionView {
    /// The event body stored under `key`, decoded; nil when there is none.
    func event<E: DomainEvent>(_ table: String, _ key: [UInt8], as: E.Type = E.self) throws -> E? {
        try state.withValue(table, key) { value in
            guard let value else { return nil }
            var reader = ByteReader(value)
            return try E(from: &reader)
        }
    }

    /// Every event body stored under keys starting with `prefix`, decoded, in key order.
    func events<E: DomainEvent>(_ table: String, prefix: [UInt8], as: E.Type = E.self) throws -> [E] {
        var result: [E] = []
        try state.scan(table, prefix: prefix) { _, value in
            var reader = ByteReader(value)
            result.append(try E(from: &reader))
            return true
        }
        return result
    }
}
