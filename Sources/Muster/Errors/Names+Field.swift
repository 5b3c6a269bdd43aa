import EventLog

extension Names {
    /// `Names.validate`, refused as a `MusterError` naming `field` — the member of a request that carried the name —
    /// with the store's words (`device id must not be empty`), so an HTTP refusal lists the member in `fields`.
    static func validate(_ name: String, as what: String, field: String, maximumBytes: Int = 200) throws {
        do {
            try validate(name, as: what, maximumBytes: maximumBytes)
        } catch let error as StoreError {
            throw MusterError(.invalidArgument, error.message, field: field)
        }
    }
}
