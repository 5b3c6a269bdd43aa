import EventLog

extension Deliveries {
    /// The namespace's `pushSizeLimit`: the most bytes of a message a push carries whole (the app fetches a
    /// larger one by its id).
    public func pushSizeLimit(namespace: String) throws -> Int {
        let value = try Settings(log: log).value(.pushSizeLimit, namespace: namespace)
        return (value ?? Setting.pushSizeLimit.defaultValue).flatMap(Int.init) ?? 4096
    }
}
