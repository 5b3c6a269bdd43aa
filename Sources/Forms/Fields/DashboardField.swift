/// A `dashboard` field: shows a dashboard, no input.
public struct DashboardField: Sendable, Hashable {
    /// The label of the tab to select first.
    public var startTab: String?
    /// Text shown before launch; default "View the Dashboard".
    public var placeholder: String

    init(reading reader: inout PropertyReader) {
        startTab = reader.string("startTab")
        placeholder = reader.string("placeholder") ?? "View the Dashboard"
    }
}
