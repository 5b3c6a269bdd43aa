import Foundation
import MusterWire

extension ResponseObject {
    /// Builds the response the app submits: the user's answers, else each field's default, else null;
    /// `currentDateTime` and `currentLocation` fields take `submittedAt` and `location`.
    /// - Parameters:
    ///   - answers: what the user entered, by field id; fields left alone are absent or null.
    ///   - submitValue: the clicked button's value, 0 for the app's Submit button.
    ///   - submittedAt: the clock reading at submit time.
    ///   - location: the device's location at submit time.
    public init(
        submitting payload: Payload, answers: [String: JSONValue], submitValue: Int, responder: Responder,
        submittedAt: Date, location: MapPoint
    ) {
        var values: [String: JSONValue] = [:]
        for field in payload.valueFields {
            guard let id = field.id else { continue }
            switch field.kind {
            case .currentDateTime:
                values[id] = .string(submittedAt.formatted(.iso8601))
            case .currentLocation:
                values[id] = location.json
            default:
                if let answer = answers[id], !answer.isNull {
                    values[id] = answer
                } else {
                    values[id] = field.initialValue ?? .null
                }
            }
        }
        self.init(
            responseTopic: payload.responseTopic ?? "", submitValue: submitValue, responder: responder, values: values,
            state: payload.state)
    }
}
