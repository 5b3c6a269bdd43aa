import Forms
import Foundation
import Geo
import MusterWire

/// JSON values as Arcade sees them, and back.
enum ArcadeJSON {
    static func value(_ json: JSONValue) -> ArcadeValue {
        switch json {
        case .null: .null
        case .bool(let b): .boolean(b)
        case .number(let n): .number(n.double)
        case .string(let s): .text(s)
        case .array(let items): .array(items.map(value))
        case .object(let object):
            .dictionary(ArcadeDictionary(object.sorted { $0.key < $1.key }.map { ($0.key, value($0.value)) }))
        }
    }

    static func json(_ value: ArcadeValue) -> JSONValue {
        switch value {
        case .null: .null
        case .boolean(let b): .bool(b)
        case .number(let n): n.isFinite ? .number(n) : .null
        case .text(let s): .string(s)
        case .date(let d): .string(d.formatted(Date.ISO8601FormatStyle()))
        case .array(let items): .array(items.map(json))
        case .dictionary(let dictionary):
            .object(
                Dictionary(dictionary.entries.map { ($0.key, json($0.value)) }, uniquingKeysWith: { _, last in last }))
        }
    }
}
