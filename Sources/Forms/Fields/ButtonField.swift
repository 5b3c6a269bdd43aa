/// A `footerButton` or `inlineButton` field: submits the form with its `value` as `submitValue`.
public struct ButtonField: Sendable, Hashable {
    /// The button's text; required.
    public var buttonLabel: String
    /// The unique number returned as `submitValue`; required.
    public var value: Int
    /// Font size of the button label (inline buttons); default 18.
    public var buttonLabelSize: Double
    /// Font style of the button label (inline buttons); default plain.
    public var buttonLabelStyle: LabelStyle.TextStyle
    /// RGB colour of the button label (inline buttons); default "#d0d0d0".
    public var buttonLabelColor: String
    /// RGB colour of the button (inline buttons); default "#000000".
    public var buttonBackgroundColor: String

    init(reading reader: inout PropertyReader) {
        buttonLabel = reader.string("buttonLabel", required: true) ?? ""
        value = reader.integer("value", required: true) ?? 0
        buttonLabelSize = reader.size("buttonLabelSize") ?? 18
        buttonLabelStyle = reader.word("buttonLabelStyle", as: LabelStyle.TextStyle.self) ?? .plain
        buttonLabelColor = reader.colour("buttonLabelColor") ?? "#d0d0d0"
        buttonBackgroundColor = reader.colour("buttonBackgroundColor") ?? "#000000"
    }
}
