import EventLog
import Forms
import MusterWire

extension Notifications {
    /// Longer than `maxDurationSeconds` by this much is still within it: a recorder stopped at the limit writes
    /// a container a few frames longer.
    static let durationTolerance: UInt64 = 500

    /// Problems with the media values of `response`: an audio, camera, video or markupImage value must name a
    /// document `user` uploaded, of the field's kind, no larger than its `maxSizeK` (KiB) and no longer than its
    /// `maxDurationSeconds` where the document's header told its length (WAV, fast-start MP4/M4A/MOV, WebM
    /// with a duration: `MediaDuration`). Values the form rules refused already (by path) are not looked at.
    static func mediaProblems(
        _ response: ResponseObject, _ payload: Payload, user: String, namespace: String, refused: Set<String>,
        documents: ProjectionView<DocumentsProjection>
    ) throws -> [FormError] {
        var problems: [FormError] = []
        for field in payload.valueFields {
            guard let id = field.id, let (media, limits) = Self.media(of: field) else { continue }
            let path = "values.\(id)"
            guard !refused.contains(path), let name = response.values[id]?.stringValue else { continue }
            guard let document = try documents.document(name, namespace: namespace), document.uploader == user else {
                problems.append(
                    FormError(
                        path: path, rule: .unknownDocument,
                        message:
                            "\"\(name)\" is no document \(user) uploaded; upload the \(media.rawValue) first "
                            + "(POST /api/v1/documents?kind=\(media.rawValue)) and answer with the name it returns"))
                continue
            }
            if let problem = Self.problem(with: document, media, limits, path: path) { problems.append(problem) }
        }
        return problems
    }

    /// The kind of document a media field takes and its limits; nil for a field that takes none.
    private static func media(of field: Field) -> (MediaKind, CaptureField?)? {
        switch field.kind {
        case .audio(let capture): (.audio, capture)
        case .video(let capture): (.video, capture)
        case .camera(let capture): (.image, capture)
        case .markupImage: (.image, nil)
        default: nil
        }
    }

    /// What keeps `document` from being the answer of a field taking `media` within `limits`, if anything.
    private static func problem(
        with document: DocumentUploaded, _ media: MediaKind, _ limits: CaptureField?, path: String
    ) -> FormError? {
        let name = document.name
        guard document.kind == media else {
            return FormError(
                path: path, rule: .badDocumentName,
                message: "\"\(name)\" is \(document.kind.rawValue), not \(media.rawValue): upload the \(media.rawValue)"
            )
        }
        if let maxSizeK = limits?.maxSizeK, maxSizeK >= 0, document.size > UInt64(maxSizeK) * 1024 {
            return FormError(
                path: path, rule: .documentTooLarge,
                message:
                    "\"\(name)\" is \(MusterError.readable(document.size)), above the field's maxSizeK of \(maxSizeK) "
                    + "(KiB): record a shorter one")
        }
        if let seconds = limits?.maxDurationSeconds, seconds >= 0, let length = document.durationMilliseconds,
            length > UInt64(seconds) * 1000 + durationTolerance
        {
            return FormError(
                path: path, rule: .documentTooLong,
                message:
                    "\"\(name)\" lasts \(Double(length) / 1000) s, longer than the field's maxDurationSeconds of "
                    + "\(seconds): record a shorter one")
        }
        return nil
    }

    /// Refuses `deviceId` when the namespace's `requireRegisteredDevice` is on and it is not one of `user`'s
    /// registered devices (push targets).
    static func checkDevice(_ deviceId: String, user: String, namespace: String, in snapshot: some LogSnapshot) throws {
        guard try snapshot.settings.value(.requireRegisteredDevice, namespace: namespace) == "true",
            try snapshot.directory.device(deviceId, user: user, namespace: namespace) == nil
        else { return }
        throw MusterError(
            .invalidArgument,
            "deviceId \(String(reflecting: deviceId)) is not a registered device of \(user), and namespace "
                + "\(namespace) requires one (requireRegisteredDevice): register the device "
                + "(POST /api/v1/devices, or muster devices register) and answer from it",
            field: "deviceId")
    }
}
