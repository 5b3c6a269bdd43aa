import Forms

extension Payload {
    /// The names of documents the payload's fields show: an `image` field's `url`, a `document` field's `url`
    /// and a `markupImage` field's `source`, each when it is a document name (`rcs/<kind>/<file>`).
    var shownDocuments: Set<String> {
        var names = Set<String>()
        for field in fields {
            let reference: String?
            switch field.kind {
            case .image(let image): reference = image.url
            case .document(let document): reference = document.url
            case .markupImage(let markup): reference = markup.source
            default: reference = nil
            }
            if let reference, MediaKind.allCases.contains(where: { $0.isDocumentName(reference) }) {
                names.insert(reference)
            }
        }
        return names
    }
}
