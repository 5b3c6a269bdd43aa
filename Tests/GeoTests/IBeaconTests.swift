import Foundation
import PropertyBased
import Testing

@testable import Geo

@Suite struct IBeaconTests {
    /// The advertising packet of seed 004 lines 756–761, `checksum: C5` being the measured power.
    static let seedHex = """
        02 01 1A 1A FF 4C 00 02 15
        F2 A7 4F C4 76 25 44 DB 9B 08 CB 7E 13 0B 20 29
        CC CC
        EE EE
        C5
        """
    static let seedBytes: [UInt8] = [
        0x02, 0x01, 0x1A, 0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15,
        0xF2, 0xA7, 0x4F, 0xC4, 0x76, 0x25, 0x44, 0xDB, 0x9B, 0x08, 0xCB, 0x7E, 0x13, 0x0B, 0x20, 0x29,
        0xCC, 0xCC, 0xEE, 0xEE, 0xC5,
    ]

    @Test func theSeedsExampleParses() throws {
        let beacon = try IBeaconAdvertisement(hex: Self.seedHex)
        #expect(beacon.proximityUUID == UUID(uuidString: "F2A74FC4-7625-44DB-9B08-CB7E130B2029"))
        #expect(beacon.major == 0xCCCC)
        #expect(beacon.minor == 0xEEEE)
        #expect(beacon.measuredPower == -59)
        #expect(beacon.bytes == Self.seedBytes)
        #expect(try IBeaconAdvertisement(bytes: Self.seedBytes) == beacon)
    }

    @Test(arguments: [
        "02011a1aff4c000215f2a74fc4762544db9b08cb7e130b2029cccceeeec5",
        "02:01:1A:1A:FF:4C:00:02:15:F2:A7:4F:C4:76:25:44:DB:9B:08:CB:7E:13:0B:20:29:CC:CC:EE:EE:C5",
        "02011A1AFF4C000215F2A74FC4762544DB9B08CB7E130B2029CCCCEEEEC5 00 00",
    ])
    func hexMayBeSpacedColonSeparatedLowercaseOrZeroPadded(text: String) throws {
        #expect(try IBeaconAdvertisement(hex: text).bytes == Self.seedBytes)
    }

    @Test func majorMinorAreBigEndian() throws {
        var bytes = Self.seedBytes
        bytes[25...28] = [0x00, 0x2A, 0x01, 0x00]
        let beacon = try IBeaconAdvertisement(bytes: bytes)
        #expect(beacon.major == 42)
        #expect(beacon.minor == 256)
    }

    struct Malformed: Sendable, CustomTestStringConvertible {
        let name: String
        let input: String
        let error: BeaconParseError
        var testDescription: String { name }
    }

    static func replacing(_ offset: Int, with byte: UInt8) -> String {
        var bytes = seedBytes
        bytes[offset] = byte
        return bytes.map { String(format: "%02X", $0) }.joined()
    }

    static let seedPlain = seedBytes.map { String(format: "%02X", $0) }.joined()

    static let malformed: [Malformed] = [
        .init(
            name: "empty", input: "",
            error: .init(.tooShort, offset: 0, expected: "flags length 02", found: "end of data after 0 bytes")),
        .init(
            name: "header only", input: String(seedPlain.prefix(18)),
            error: .init(
                .tooShort, offset: 9, expected: "proximity UUID (16 bytes)", found: "end of data after 9 bytes")),
        .init(
            name: "cut in the UUID", input: String(seedPlain.prefix(34)),
            error: .init(
                .tooShort, offset: 17, expected: "proximity UUID (16 bytes)", found: "end of data after 17 bytes")),
        .init(
            name: "no measured power", input: String(seedPlain.prefix(58)),
            error: .init(
                .tooShort, offset: 29, expected: "measured power (1 byte)", found: "end of data after 29 bytes")),
        .init(
            name: "cut in the header", input: "02011A1AFF4C",
            error: .init(.tooShort, offset: 6, expected: "company id 4C 00 (Apple)", found: "end of data after 6 bytes")
        ),
        .init(
            name: "not manufacturer data", input: replacing(4, with: 0x16),
            error: .init(.unexpectedByte, offset: 4, expected: "manufacturer data type FF", found: "16")),
        .init(
            name: "wrong company id", input: replacing(5, with: 0x59),
            error: .init(.unexpectedByte, offset: 5, expected: "company id 4C 00 (Apple)", found: "59 00")),
        .init(
            name: "wrong company id high byte", input: replacing(6, with: 0x01),
            error: .init(.unexpectedByte, offset: 5, expected: "company id 4C 00 (Apple)", found: "4C 01")),
        .init(
            name: "not an iBeacon type", input: replacing(7, with: 0x03),
            error: .init(.unexpectedByte, offset: 7, expected: "iBeacon type 02", found: "03")),
        .init(
            name: "wrong iBeacon length", input: replacing(8, with: 0x14),
            error: .init(.unexpectedByte, offset: 8, expected: "iBeacon length 15", found: "14")),
        .init(
            name: "trailing data", input: seedPlain + "00FF",
            error: .init(
                .trailingBytes, offset: 31, expected: "end of data (or zero padding) after 30 bytes", found: "FF")),
        .init(
            name: "not hex", input: "02 01 1G",
            error: .init(.badHex, offset: 7, expected: "a hex digit", found: "\"G\"")),
        .init(
            name: "odd digits", input: "02 01 1",
            error: .init(.badHex, offset: 7, expected: "an even number of hex digits", found: "an odd number")),
        .init(
            name: "a full-width digit", input: "０2",
            error: .init(.badHex, offset: 0, expected: "a hex digit", found: "\"０\"")),
        .init(
            name: "the seed's link-layer stream", input: "D6 BE 89 8E 00 24 CF 43 67 80 07 00 " + seedPlain,
            error: .init(.unexpectedByte, offset: 0, expected: "flags length 02", found: "D6")),
    ]

    @Test(arguments: malformed) func anythingElseIsRefusedNamingTheOffset(_ case: Malformed) {
        #expect(throws: `case`.error) { try IBeaconAdvertisement(hex: `case`.input) }
    }

    @Test(arguments: [UInt8(0x06), 0x1A, 0x1E]) func anyFlagsAreAcceptedAndKept(_ flags: UInt8) throws {
        let advert = try IBeaconAdvertisement(hex: Self.replacing(2, with: flags))
        #expect(advert.flags == flags)
        #expect(advert.major == 0xCCCC)
        #expect(advert.minor == 0xEEEE)
        #expect(advert.bytes[2] == flags, "the flags are written back as read")
    }

    @Test func theErrorReadsAsOneLine() {
        let error = BeaconParseError(.unexpectedByte, offset: 5, expected: "company id 4C 00 (Apple)", found: "59 00")
        #expect(error.description == "offset 5: expected company id 4C 00 (Apple), found 59 00 [unexpected-byte]")
    }

    @Test func anyAdvertisementRoundTripsThroughItsBytes() async {
        await propertyCheck(
            input: Gen.uint8().array(of: 16), Gen.int(in: 0...0xFFFF), Gen.int(in: 0...0xFFFF), Gen.int(in: -128...127)
        ) {
            uuid, major, minor, power in
            let u = uuid
            let beacon = IBeaconAdvertisement(
                proximityUUID: UUID(
                    uuid: (
                        u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14],
                        u[15]
                    )),
                major: UInt16(major), minor: UInt16(minor), measuredPower: Int8(power))
            #expect(try! IBeaconAdvertisement(bytes: beacon.bytes) == beacon)
            let hex = beacon.bytes.map { String(format: "%02x", $0) }.joined(separator: " ")
            #expect(try! IBeaconAdvertisement(hex: hex) == beacon)
        }
    }

    @Test func noCorruptedHeaderByteButTheFlagsIsAccepted() async {
        await propertyCheck(input: Gen.int(in: 0...8), Gen.uint8()) { offset, byte in
            var bytes = Self.seedBytes
            guard bytes[offset] != byte, offset != 2 else { return }
            bytes[offset] = byte
            #expect(throws: BeaconParseError.self) { try IBeaconAdvertisement(bytes: bytes) }
        }
    }
}

@Suite struct BeaconProximityTests {
    @Test(arguments: [
        (-50, -59, BeaconProximity.immediate),  // about 0.35 m
        (-59, -59, .near),  // 1 m
        (-65, -59, .near),  // 2 m
        (-68, -59, .near),  // 2.8 m
        (-70, -59, .far),  // 3.5 m
        (-90, -59, .far),
        (0, -59, .unknown),
        (5, -59, .unknown),
        (-60, 0, .unknown),
    ])
    func categoryFromRSSIAndMeasuredPower(rssi: Int, power: Int, expected: BeaconProximity) {
        #expect(BeaconProximity(rssi: rssi, measuredPower: power) == expected)
    }

    @Test(arguments: [(-59, 1.0), (-79, 10.0), (-39, 0.1), (-65, 1.9952623149688795)])
    func theLogDistanceEstimate(rssi: Int, metres: Double) {
        let estimate = BeaconProximity.estimatedDistance(rssi: rssi, measuredPower: -59)!
        #expect(abs(estimate - metres) < 1e-9)
    }

    @Test(arguments: [
        ("0", BeaconProximity.immediate), ("1", .near), ("2", .far), ("immediate", .immediate), ("Near", .near),
        (" far ", .far),
    ])
    func theSeedsCodesAndNames(text: String, expected: BeaconProximity) {
        #expect(BeaconProximity(ubudu: text) == expected)
    }

    @Test(arguments: ["", "3", "unknown", "close"])
    func otherCodesAreNotCategories(text: String) {
        #expect(BeaconProximity(ubudu: text) == nil)
    }

    @Test(arguments: [
        (BeaconProximity.immediate, BeaconProximity.immediate, true), (.immediate, .far, true),
        (.near, .immediate, false),
        (.far, .near, false), (.far, .far, true), (.unknown, .far, false),
    ])
    func maximumProximityMeansThisOrCloser(seen: BeaconProximity, maximum: BeaconProximity, within: Bool) {
        #expect(seen.isWithin(maximum) == within)
    }

    @Test func closerSightingsNeverGetAFartherCategory() async {
        await propertyCheck(input: Gen.int(in: -120 ... -1), Gen.int(in: -120 ... -1), Gen.int(in: -100 ... -30)) {
            a, b, power in
            let stronger = max(a, b)
            let weaker = min(a, b)
            #expect(
                BeaconProximity(rssi: stronger, measuredPower: power)
                    <= BeaconProximity(rssi: weaker, measuredPower: power))
        }
    }
}
