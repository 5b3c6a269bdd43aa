import Foundation
import MusterWire

/// The form sent to a person: where the answer goes, the fields to show and state passed through.
public struct Payload: Sendable, Hashable {
    /// The topic the response object is published on, `/a/b/c`; required.
    public var responseTopic: String?
    /// The fields, in order.
    public var fields: [Field]
    /// Any JSON, copied unaltered into the response; nil when the payload has no `state`.
    public var state: JSONValue?
    /// The name of a stored payload this one refers to.
    public var payloadName: String?
    /// Problems found while reading (not JSON, wrong property types).
    let problems: [FormError]

    /// Reads a payload from JSON bytes; never throws: unreadable content is reported by `validate()`.
    public static func parse(_ data: Data) -> Payload {
        do {
            return Payload(json: try JSONValue(json: data))
        } catch {
            // Where and why (a stray comma, nesting too deep): valid-looking JSON refused says what is wrong with it.
            return Payload(problem: FormError(path: "payload", rule: .notJSON, message: "is not valid JSON (\(error))"))
        }
    }

    /// Reads a payload from a decoded JSON value.
    public init(json: JSONValue) {
        var reader = PropertyReader([:], path: "payload")
        guard let object = json.objectValue else {
            (responseTopic, fields, state, payloadName) = (nil, [], nil, nil)
            problems = [FormError(path: "payload", rule: .notJSON, message: "must be a JSON object")]
            return
        }
        reader = PropertyReader(object, path: "payload")
        responseTopic = reader.string("responseTopic")
        payloadName = reader.string("payloadName")
        state = object["state"]
        fields = []
        if let raw = object["fields"], !raw.isNull {
            if let elements = raw.arrayValue {
                for (index, element) in elements.enumerated() {
                    if let properties = element.objectValue {
                        fields.append(Field(index: index, json: properties))
                    } else {
                        reader.report("fields[\(index)]", .badFields, "must be an object, not \(element.kindName)")
                    }
                }
            } else {
                reader.report("fields", .badFields, "must be an array, not \(raw.kindName)")
            }
        }
        problems = reader.problems
    }

    private init(problem: FormError) {
        responseTopic = nil
        fields = []
        state = nil
        payloadName = nil
        problems = [problem]
    }

    /// The fields whose values the response carries, in order.
    public var valueFields: [Field] { fields.filter(\.producesValue) }

    /// The `submitValue`s the buttons declare; empty when the app adds its own Submit button (value 0).
    public var buttonValues: [Int] {
        fields.flatMap(\.buttonValues)
    }
}
