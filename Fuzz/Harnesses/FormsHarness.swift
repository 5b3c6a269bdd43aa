import Forms
import Foundation
import MusterWire

extension FuzzTarget {
    /// A form payload and a response object, as a sender and an app post them: `payload NUL response`.
    static let forms = FuzzTarget(
        name: "forms", summary: "Payload.parse + validate() and validate(response:) on a posted payload and response"
    ) { input in
        let texts = parts(input, count: 2)
        let payload = Payload.parse(Data(texts[0]))
        let report = payload.validate()
        require(report == payload.validate(), "validating the same payload twice gives different reports")
        for problem in report.errors + report.warnings {
            require(!problem.path.isEmpty && !problem.message.isEmpty, "a problem without a place or a reason")
        }
        if let response = try? ResponseObject(json: Data(texts[1])) {
            for problem in payload.validate(response: response) {
                require(!problem.path.isEmpty && !problem.message.isEmpty, "a problem without a place or a reason")
            }
            // The stored form of a response reads back as the same response.
            let again = try? ResponseObject(json: response.jsonData())
            require(again == response, "a response object does not read back from its own JSON")
        }
        // A valid payload's own defaults make a response that names only the payload's fields.
        if report.isValid {
            let submitted = ResponseObject(
                submitting: payload, answers: [:], submitValue: payload.buttonValues.first ?? 0,
                responder: Responder(username: "fuzz", deviceId: "d1", deviceName: "fuzz device"),
                submittedAt: Date(timeIntervalSince1970: 1_774_744_200),
                location: MapPoint(longitude: 4.83, latitude: 45.76))
            let ids = Set(payload.valueFields.compactMap(\.id))
            require(Set(submitted.values.keys).isSubset(of: ids), "a submitted response has values of no field")
            _ = payload.validate(response: submitted)
        }
    }
}
