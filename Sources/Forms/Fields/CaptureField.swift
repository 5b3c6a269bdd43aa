/// An `audio`, `video` or `camera` field: the value is the name of the uploaded document.
public struct CaptureField: Sendable, Hashable {
    /// Longest recording in seconds (audio and video; default 10); nil for camera.
    public var maxDurationSeconds: Int?
    /// Largest file in KB (audio default 100, video 1000); nil for camera.
    public var maxSizeK: Int?
    /// Text shown before capture ("Start Recording" or "Take Photo").
    public var placeholder: String
    /// Whether the user may submit without capturing (value null).
    public var optional: Bool

    init(_ type: FieldType, reading reader: inout PropertyReader) {
        switch type {
        case .camera:
            maxDurationSeconds = nil
            maxSizeK = nil
            placeholder = reader.string("placeholder") ?? "Take Photo"
        default:
            maxDurationSeconds = reader.positiveInteger("maxDurationSeconds") ?? 10
            maxSizeK = reader.positiveInteger("maxSizeK") ?? (type == .video ? 1000 : 100)
            placeholder = reader.string("placeholder") ?? "Start Recording"
        }
        optional = reader.bool("optional") ?? false
    }
}
