import Foundation
import MusterWire

extension FuzzTarget {
    /// JSON text from a request body, a device message or an import line.
    static let json = FuzzTarget(name: "json", summary: "JSONValue(json:) and JSONScanner.scan on any bytes") { input in
        let value: JSONValue
        do {
            value = try JSONValue(json: input)
        } catch {
            require(!JSONScanner.isValid(input), "JSONScanner accepts what JSONValue(json:) refuses")
            return
        }
        require(JSONScanner.isValid(input), "JSONValue(json:) accepts what JSONScanner refuses")
        if let document = try? JSONScanner.scan(input) {
            require(document.isObject == (value.objectValue != nil), "scanner and value disagree on the top level")
            for member in document.members {
                require(
                    member.value.lowerBound >= 0 && member.value.upperBound <= input.count,
                    "member \(member.key) has a range outside the input")
            }
        }
        // A value re-encodes to JSON that reads back as the same value.
        let text = value.jsonData()
        let again = try? JSONValue(json: text)
        require(
            again == value,
            "\(String(decoding: text, as: UTF8.self)) does not read back as the value it was written from")
    }
}
