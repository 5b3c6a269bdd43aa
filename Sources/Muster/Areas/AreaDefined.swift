import EventLog
import Foundation

/// An area was created or replaced (its whole definition, rules included).
public struct AreaDefined: DomainEvent, Hashable {
    public static let type = "AreaDefined"
    public static let schemaVersion: UInt16 = 1

    public var area: Area

    public init(area: Area) { self.area = area }

    public func encode(into w: inout ByteWriter) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        w.write(bytes: (try? encoder.encode(area)) ?? Data())
    }

    public init(from r: inout ByteReader) throws {
        let bytes = try r.readBytes("area")
        do {
            area = try JSONDecoder().decode(Area.self, from: Data(bytes))
        } catch {
            throw StoreError(.corrupt, "an AreaDefined body does not decode: \(error)")
        }
    }
}

/// An area was removed; its counters stay in the log.
public struct AreaRemoved: DomainEvent, Hashable {
    public static let type = "AreaRemoved"
    public static let schemaVersion: UInt16 = 1

    public var id: String

    public init(id: String) { self.id = id }

    public func encode(into w: inout ByteWriter) { w.write(id) }

    public init(from r: inout ByteReader) throws { id = try r.readString("area id") }
}
