/// The 24 field types of seed 000 (its type table); any other `type` is ignored by the app.
public enum FieldType: String, Sendable, Hashable, CaseIterable, Codable {
    /// The `type` names, spelled as in the seed.
    case audio, barcode, buttonCluster, camera, checkbox, currentDateTime, currentLocation, date, datetime
    case dashboard, document, droplist, footerButton, image, inlineButton, inputInteger, inputReal, inputString
    case map, markupImage, radioButtons, sectionLabel, text, video

    /// Whether the field always produces a response value and so needs an `id` (a map does only when it has one).
    public var requiresID: Bool {
        switch self {
        case .audio, .barcode, .camera, .checkbox, .currentDateTime, .currentLocation, .date, .datetime, .droplist,
            .inputInteger, .inputReal, .inputString, .markupImage, .radioButtons, .video:
            true
        case .buttonCluster, .dashboard, .document, .footerButton, .image, .inlineButton, .map, .sectionLabel, .text:
            false
        }
    }

    /// Whether the field takes a `default` property.
    public var takesDefault: Bool {
        switch self {
        case .barcode, .checkbox, .date, .datetime, .droplist, .inputInteger, .inputReal, .inputString, .map,
            .radioButtons:
            true
        default: false
        }
    }
}

extension FieldType {
    /// The type a writer most likely meant by `name`: the same name in other case (`Text`), the one type with
    /// `name` as one of its words (`radio` → `radioButtons`, `string` → `inputString`), or one a letter or two away
    /// (`textt`, `dropList`); nil when none is that close or several are.
    public static func nearest(to name: String) -> FieldType? {
        let wanted = name.lowercased()
        guard wanted.count >= 3 else { return nil }
        if let same = allCases.first(where: { $0.rawValue.lowercased() == wanted }) { return same }
        let havingTheWord = allCases.filter { $0.words.contains(wanted) }
        if havingTheWord.count == 1 { return havingTheWord[0] }
        let scored = allCases.map { type in
            (type, Array(wanted).difference(from: Array(type.rawValue.lowercased())).count)
        }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2 else { return nil }
        return best.0
    }

    /// The lower-cased words of the camel-case name: `radioButtons` → `radio`, `buttons`.
    private var words: [String] {
        rawValue.reduce(into: [String]()) { words, character in
            if character.isUppercase || words.isEmpty {
                words.append(String(character).lowercased())
            } else {
                words[words.count - 1].append(character)
            }
        }
    }
}
