/// A field's type-specific properties.
public enum FieldKind: Sendable, Hashable {
    /// An `audio` field.
    case audio(CaptureField)
    /// A `barcode` field.
    case barcode(TextInputField)
    /// A `buttonCluster` field.
    case buttonCluster(ButtonClusterField)
    /// A `camera` field.
    case camera(CaptureField)
    /// A `checkbox` field.
    case checkbox(CheckboxField)
    /// A `currentDateTime` field.
    case currentDateTime
    /// A `currentLocation` field.
    case currentLocation
    /// A `date` field.
    case date(DateField)
    /// A `datetime` field.
    case datetime(DateField)
    /// A `dashboard` field.
    case dashboard(DashboardField)
    /// A `document` field.
    case document(DocumentField)
    /// A `droplist` field.
    case droplist(ChoiceField)
    /// A `footerButton` field.
    case footerButton(ButtonField)
    /// An `image` field.
    case image(ImageField)
    /// An `inlineButton` field.
    case inlineButton(ButtonField)
    /// An `inputInteger` field.
    case inputInteger(NumberField)
    /// An `inputReal` field.
    case inputReal(NumberField)
    /// An `inputString` field.
    case inputString(TextInputField)
    /// A `map` field.
    case map(MapField)
    /// A `markupImage` field.
    case markupImage(MarkupImageField)
    /// A `radioButtons` field.
    case radioButtons(ChoiceField)
    /// A `sectionLabel` field.
    case sectionLabel
    /// A `text` field.
    case text
    /// A `video` field.
    case video(CaptureField)
    /// A missing or unknown `type`; the app ignores the field.
    case ignored(type: String?)

    init(_ type: FieldType, hasID: Bool, reading reader: inout PropertyReader) {
        switch type {
        case .audio: self = .audio(CaptureField(type, reading: &reader))
        case .barcode: self = .barcode(TextInputField(type, reading: &reader))
        case .buttonCluster: self = .buttonCluster(ButtonClusterField(reading: &reader))
        case .camera: self = .camera(CaptureField(type, reading: &reader))
        case .checkbox: self = .checkbox(CheckboxField(reading: &reader))
        case .currentDateTime: self = .currentDateTime
        case .currentLocation: self = .currentLocation
        case .date: self = .date(DateField(type, reading: &reader))
        case .datetime: self = .datetime(DateField(type, reading: &reader))
        case .dashboard: self = .dashboard(DashboardField(reading: &reader))
        case .document: self = .document(DocumentField(reading: &reader))
        case .droplist: self = .droplist(ChoiceField(reading: &reader))
        case .footerButton: self = .footerButton(ButtonField(reading: &reader))
        case .image: self = .image(ImageField(reading: &reader))
        case .inlineButton: self = .inlineButton(ButtonField(reading: &reader))
        case .inputInteger: self = .inputInteger(NumberField(type, reading: &reader))
        case .inputReal: self = .inputReal(NumberField(type, reading: &reader))
        case .inputString: self = .inputString(TextInputField(type, reading: &reader))
        case .map: self = .map(MapField(hasID: hasID, reading: &reader))
        case .markupImage: self = .markupImage(MarkupImageField(reading: &reader))
        case .radioButtons: self = .radioButtons(ChoiceField(reading: &reader))
        case .sectionLabel: self = .sectionLabel
        case .text: self = .text
        case .video: self = .video(CaptureField(type, reading: &reader))
        }
    }
}
