import Foundation

extension AnswerBody: PlainJSONDecodable {
    /// The members a plain answer may have.
    private static let plainMembers: Set<String> = ["deviceId", "deviceName", "submitValue", "values", "responseId"]

    /// Reads an answer without Foundation's `JSONDecoder` when it is plain: an object with `deviceId` and `values`,
    /// at most `deviceName`, `submitValue` (an integer literal) and `responseId` (a UUID) besides, each member once,
    /// no `\u` escape and no number too large for a `Double`. Nil for anything else — a `location`, an unknown or
    /// mistyped member, text that is not JSON —, which the decoder then reads or refuses with its own errors. Where
    /// it gives an answer it is the one the decoder gives.
    ///
    /// The answer routes are the busiest writes; the decoder took 13 % of their CPU (bench http-submission).
    public init?(plainJSON bytes: [UInt8]) {
        guard let object = PlainJSONObject(bytes, allowed: Self.plainMembers),
            case .string(let deviceId) = object.value("deviceId"), let values = object.value("values"),
            values.isFinite
        else { return nil }
        self.init(deviceId: deviceId, values: values)
        switch object.value("deviceName") {
        case nil, .null: break
        case .string(let name): deviceName = name
        default: return nil
        }
        if !object.isAbsent("submitValue") {
            guard let number = object.integer("submitValue") else { return nil }
            submitValue = number
        }
        switch object.value("responseId") {
        case nil, .null: break
        case .string(let text):
            guard let id = UUID(uuidString: text) else { return nil }
            responseId = id
        default: return nil
        }
    }
}
