/// A field's `label` and its four styling properties, with the seed's defaults.
public struct LabelStyle: Sendable, Hashable {
    /// Horizontal alignment of a label.
    public enum Alignment: String, Sendable, Hashable, CaseIterable {
        /// The seed's three alignments.
        case left, right, center
    }
    /// Font style of a label or button label.
    public enum TextStyle: String, Sendable, Hashable, CaseIterable {
        /// The seed's four styles.
        case plain, bold, italic
        /// Written "bold-italic".
        case boldItalic = "bold-italic"
    }

    /// The label text, when there is one.
    public var text: String?
    /// Font size; default 18.
    public var size: Double = 18
    /// Alignment; default center.
    public var align: Alignment = .center
    /// RGB colour `#rrggbb`; default black.
    public var color: String = "#000000"
    /// Font style; default plain.
    public var style: TextStyle = .plain

    /// Creates a style with the seed's defaults.
    public init(text: String? = nil) { self.text = text }

    init(reading reader: inout PropertyReader) {
        text = reader.string("label")
        size = reader.size("size") ?? size
        align = reader.word("align", as: Alignment.self) ?? align
        color = reader.colour("color") ?? color
        style = reader.word("style", as: TextStyle.self) ?? style
    }
}
