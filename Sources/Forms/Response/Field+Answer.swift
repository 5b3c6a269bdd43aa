import MusterWire

extension Field {
    /// The value the app fills in when the user leaves the field alone (the seed's case 2), if any.
    public var initialValue: JSONValue? {
        switch kind {
        case .checkbox(let field): .bool(field.defaultValue)
        case .barcode(let field), .inputString(let field): field.defaultValue.map(JSONValue.string)
        case .date(let field), .datetime(let field): field.defaultValue.map(JSONValue.string)
        case .droplist(let field), .radioButtons(let field): field.defaultValue
        case .inputInteger(let field), .inputReal(let field):
            field.flavor == .slider ? .number(field.sliderStart) : field.defaultValue.map(JSONValue.number)
        case .map(let field): field.defaultValue?.json
        default: nil
        }
    }

    /// Whether the response may carry null: an optional field without default (case 3), or any checkbox.
    /// A slider always has a value, so its `optional` is ignored.
    public var acceptsNull: Bool {
        switch kind {
        case .checkbox: true
        case .audio(let field), .camera(let field), .video(let field): field.optional
        case .markupImage(let field): field.optional
        case .barcode(let field), .inputString(let field): field.optional && field.defaultValue == nil
        case .date(let field), .datetime(let field): field.optional && field.defaultValue == nil
        case .droplist(let field), .radioButtons(let field): field.optional && field.defaultValue == nil
        case .inputInteger(let field), .inputReal(let field):
            field.flavor == .text && field.optional && field.defaultValue == nil
        case .map(let field): field.optional && field.defaultValue == nil
        default: false
        }
    }
}
