import Foundation
import PropertyBased
import Testing

@testable import EventLog

@Suite struct CodecTests {
    @Test func crc32cMatchesTheStandardCheckValue() {
        #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
        #expect(CRC32C.checksum([]) == 0)
        #expect(CRC32C.checksum([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
    }

    @Test func crc32cInPiecesEqualsCrc32cOfTheWhole() async {
        await propertyCheck(input: Gen.uint8().array(of: 0...300), Gen.int(in: 0...300)) { bytes, cut in
            let split = min(cut, bytes.count)
            let whole = CRC32C.checksum(bytes)
            let first = Array(bytes[..<split]).withUnsafeBytes { CRC32C.checksum($0) }
            let both = Array(bytes[split...]).withUnsafeBytes { CRC32C.checksum($0, continuing: first) }
            #expect(both == whole)
        }
    }

    @Test func varintsAndZigZagRoundTrip() async throws {
        await propertyCheck(input: Gen.uint64(), Gen.int64()) { unsigned, signed in
            var w = ByteWriter()
            w.write(varint: unsigned)
            w.write(signed: signed)
            w.write(fixed: unsigned)
            let bytes = w.bytes
            bytes.withUnsafeBytes { buffer in
                var r = ByteReader(buffer)
                #expect((try? r.readVarint()) == unsigned)
                #expect((try? r.readSigned()) == signed)
                #expect((try? r.read(fixed: UInt64.self)) == unsigned)
                #expect(r.remaining == 0)
            }
        }
    }

    @Test func truncatedInputIsReportedAsCorruptNotCrashed() throws {
        var w = ByteWriter()
        w.write("a string of some length")
        let bytes = Array(w.bytes.dropLast(3))
        let error = bytes.withUnsafeBytes { buffer -> StoreError? in
            var r = ByteReader(buffer)
            do {
                _ = try r.readString("label")
                return nil
            } catch { return error as? StoreError }
        }
        #expect(error?.code == .corrupt)
        #expect(error?.message.contains("label") == true)
    }

    static let names = Gen.letterOrNumber.string(of: 1...40)
    static let bodies = Gen.uint8().array(of: 0...600)

    @Test func envelopesRoundTripEveryField() async {
        await propertyCheck(
            input: Gen.uint64(in: 1...UInt64.max), Self.names, Self.names, Self.bodies, Gen.int64(), Gen.uint16()
        ) { position, stream, type, body, recordedAt, schema in
            let event = RecordedEvent(
                position: position, id: UUID(), namespace: "ns-" + type, stream: stream,
                version: position / 2 + 1, type: type, schemaVersion: schema, recordedAt: recordedAt,
                actor: "actor " + stream, causationId: body.count.isMultiple(of: 2) ? UUID() : nil,
                correlationId: body.count.isMultiple(of: 3) ? nil : UUID(),
                body: EventBody(format: body.count.isMultiple(of: 5) ? .json : .binary, bytes: body))
            let encoded = EnvelopeCodec.encode(event, previousInStream: position / 3)
            let decoded = encoded.withUnsafeBytes { try? EnvelopeCodec.decode(position: position, $0) }
            #expect(decoded == event)
        }
    }

    @Test func aFlippedByteOrAWrongPositionFailsTheChecksum() async {
        await propertyCheck(input: Self.bodies, Gen.int(in: 0...10_000)) { body, flip in
            let event = RecordedEvent(
                position: 7, id: UUID(), namespace: "default", stream: "s", version: 1, type: "T", schemaVersion: 1,
                recordedAt: 0, actor: "system", causationId: nil, correlationId: nil, body: .binary(body))
            var encoded = EnvelopeCodec.encode(event, previousInStream: 3)
            let index = flip % encoded.count
            encoded[index] ^= 0x5A
            let error = encoded.withUnsafeBytes { buffer -> StoreError? in
                do {
                    _ = try EnvelopeCodec.decode(position: 7, buffer)
                    return nil
                } catch { return error as? StoreError }
            }
            #expect(error?.code == .corrupt)
            let intact = EnvelopeCodec.encode(event, previousInStream: 3)
            let misplaced = intact.withUnsafeBytes { buffer in (try? EnvelopeCodec.decode(position: 8, buffer)) == nil }
            #expect(misplaced)
        }
    }
}

@Suite struct EventIDTests {
    @Test func idsAreVersion7AndSortInTheOrderTheyWereMade() {
        let ids = (0..<10_000).map { _ in EventID.make() }
        let keys = ids.map { withUnsafeBytes(of: $0.uuid) { Array($0) } }
        #expect(keys == keys.sorted { $0.lexicographicallyPrecedes($1) })
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { $0.uuid.6 >> 4 == 7 && $0.uuid.8 >> 6 == 0b10 })
        // The 62 random bits differ from id to id (they are drawn 512 words at a time, never reused).
        #expect(Set(keys.map { $0[8...] }).count == ids.count)
    }

    @Test func theTimestampIsTheCreationMillisecond() {
        let at = Date(timeIntervalSince1970: 1_767_225_600.123)
        let id = EventID.make(now: at)
        let bytes = withUnsafeBytes(of: id.uuid) { Array($0) }
        let millis = bytes[0..<6].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        #expect(millis >= 1_767_225_600_123)
    }
}

@Suite struct ChecksumImplementationsTests {
    @Test func theHardwareAndTableChecksumsAgree() async {
        await propertyCheck(input: Gen.uint8().array(of: 0...2000), Gen.uint32()) { bytes, seed in
            bytes.withUnsafeBytes { buffer in
                #expect(CRC32C.checksum(buffer, continuing: seed) == CRC32C.software(buffer, continuing: seed))
            }
        }
    }
}
