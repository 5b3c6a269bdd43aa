/// A `buttonCluster` field: inline submit buttons, each returning its `value` as `submitValue`.
public struct ButtonClusterField: Sendable, Hashable {
    /// One button of the cluster.
    public struct Button: Sendable, Hashable {
        /// The button's text.
        public var label: String
        /// The number returned as `submitValue`.
        public var value: Int
    }

    /// The buttons; required and non-empty.
    public var buttons: [Button]

    init(reading reader: inout PropertyReader) {
        buttons = []
        guard let raw = reader.value("values") else {
            reader.report("values", .missingProperty, "is required")
            return
        }
        guard let elements = raw.arrayValue, !elements.isEmpty else {
            reader.report("values", .wrongType, "must be a non-empty array of {\"label\", \"value\"}, not \(raw)")
            return
        }
        for (position, element) in elements.enumerated() {
            guard let object = element.objectValue, let label = object["label"]?.stringValue,
                let value = object["value"]?.intValue
            else {
                reader.report(
                    "values[\(position)]", .wrongType, "must be {\"label\": string, \"value\": integer}, not \(element)"
                )
                continue
            }
            buttons.append(Button(label: label, value: value))
        }
    }
}
