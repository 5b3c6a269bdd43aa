import EventLog
import Foundation
import Testing

/// The binary codec writes a type's fields in order with no keys, and refuses what it cannot read
/// back as corrupt data rather than trapping or looping.
@Suite struct BinaryCodingTests {
    enum Colour: String, Codable { case red, green }

    struct Item: Codable, Equatable {
        var name: String
        var count: Int
    }

    struct Sample: Codable, Equatable {
        var id: UUID
        var text: String
        var note: String?
        var small: Int8
        var large: UInt64
        var score: Int?
        var ratio: Double?
        var colour: Colour
        var flag: Bool
        var bytes: [UInt8]
        var items: [Item]
    }

    static let sample = Sample(
        id: UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!, text: "héllo", note: nil, small: -3,
        large: UInt64.max, score: 7, ratio: 0.5, colour: .green, flag: true, bytes: [0, 255],
        items: [.init(name: "a", count: -1)])

    func encoded(_ value: some Encodable) throws -> [UInt8] {
        var writer = ByteWriter()
        try BinaryCoding.encode(value, into: &writer)
        return writer.bytes
    }

    func decoded<T: Decodable>(_ type: T.Type, _ bytes: [UInt8]) throws -> T {
        try bytes.withUnsafeBytes { buffer in
            var reader = ByteReader(buffer)
            let value = try BinaryCoding.decode(type, from: &reader)
            #expect(reader.remaining == 0)
            return value
        }
    }

    @Test func fieldsAreWrittenInOrderWithTheByteWritersEncodings() throws {
        var expected = ByteWriter()
        expected.write(Self.sample.id)
        expected.write("héllo")
        expected.write("")  // a nil String is written as ""
        expected.write(signed: -3)
        expected.write(varint: UInt64.max)
        expected.write(signed: 7)
        expected.write(true)
        expected.write(fixed: (0.5).bitPattern)
        expected.write("green")
        expected.write(true)
        expected.write(bytes: [0, 255])
        expected.write(varint: 1)
        expected.write("a")
        expected.write(signed: -1)
        #expect(try encoded(Self.sample) == expected.bytes)
        #expect(try decoded(Sample.self, expected.bytes) == Self.sample)
    }

    @Test func anAbsentOptionalReadsBackAsNil() throws {
        var sample = Self.sample
        sample.note = nil
        sample.score = nil
        sample.ratio = nil
        #expect(try decoded(Sample.self, encoded(sample)) == sample)
        sample.note = "n"
        sample.score = 0
        sample.ratio = -0.0
        #expect(try decoded(Sample.self, encoded(sample)) == sample)
    }

    @Test func anUnknownEnumValueIsCorrupt() throws {
        var bytes = ByteWriter()
        bytes.write("blue")
        let error = #expect(throws: StoreError.self) { try decoded(Colour.self, bytes.bytes) }
        #expect(error?.code == .corrupt)
        #expect(error?.message.contains("invalid String value blue") == true, "\(String(describing: error))")
    }

    @Test func aCountLargerThanTheBytesLeftIsCorrupt() throws {
        var bytes = ByteWriter()
        bytes.write(varint: 1_000_000)
        bytes.write("a")
        let error = #expect(throws: StoreError.self) { try decoded([String].self, bytes.bytes) }
        #expect(error?.code == .corrupt)
    }

    @Test func anIntegerTooLargeForItsFieldIsCorrupt() throws {
        var bytes = ByteWriter()
        bytes.write(signed: 300)
        let error = #expect(throws: StoreError.self) { try decoded(Int8.self, bytes.bytes) }
        #expect(error?.code == .corrupt)
    }

    @Test func truncatedBytesAreCorrupt() throws {
        let bytes = try encoded(Self.sample)
        let error = #expect(throws: StoreError.self) { try decoded(Sample.self, Array(bytes.dropLast(3))) }
        #expect(error?.code == .corrupt)
    }

    @Test func dictionariesAndSetsAreRefusedRatherThanWrittenAmbiguously() {
        #expect(throws: (any Error).self) { try encoded(["a": 1]) }
        #expect(throws: (any Error).self) { try encoded(Set(["a", "b"])) }
    }
}
