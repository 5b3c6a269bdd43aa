/// A field's type-specific properties.
public enum FieldKind: Sendable, Hashable {
    case audio(CaptureField)
    case barcode(TextInputField)
    case buttonCluster(ButtonClusterField)
    case camera(CaptureField)
    case checkbox(CheckboxField)
    case currentDateTime
    case currentLocation
    case date(DateField)
    case datetime(DateField)
    case dashboard(DashboardField)
    case document(DocumentField)
    case droplist(ChoiceField)
    case footerButton(ButtonField)
    case image(ImageField)
    case inlineButton(ButtonField)
    case inputInteger(NumberField)
    case inputReal(NumberField)
    case inputString(TextInputField)
    case map(MapField)
    case markupImage(MarkupImageField)
    case radioButtons(ChoiceField)
    case sectionLabel
    case text
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
