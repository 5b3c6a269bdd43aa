import Foundation

/// An iBeacon advertisement as seed 004 lays it out (lines 749–762): the 9-byte header
/// `02 01 1A 1A FF 4C 00 02 15`, the 16-byte proximity UUID, major and minor (2 bytes each,
/// big-endian), and one signed byte of measured power.
///
/// The third byte is the advertiser's Bluetooth flags: the seed's iPhone sends `1A`, many beacons `06`
/// (general discoverable, no BR/EDR); any value is accepted and kept in `flags`.
///
/// The seed names the last byte "checksum" (line 761, `C5`); in Apple's iBeacon format it is the
/// calibrated RSSI at one metre in dBm, two's complement (`C5` = −59 dBm), which is how it is read
/// here. The link-layer bytes around the packet in the seed's stream (access address, PDU header,
/// advertiser address, CRC) are not part of the advertising data and are not accepted.
public struct IBeaconAdvertisement: Sendable, Hashable {
    /// The fixed header and its meaning, byte by byte.
    static let header: [(byte: UInt8?, meaning: String)] = [
        (0x02, "flags length 02"), (0x01, "flags type 01"), (nil, "flags"),
        (0x1A, "manufacturer data length 1A"), (0xFF, "manufacturer data type FF"),
        (0x4C, "company id 4C 00 (Apple)"), (0x00, "company id 4C 00 (Apple)"),
        (0x02, "iBeacon type 02"), (0x15, "iBeacon length 15"),
    ]
    /// The number of bytes the layout takes.
    public static let length = 30

    /// The proximity UUID the region matches on.
    public let proximityUUID: UUID
    /// The major number.
    public let major: UInt16
    /// The minor number.
    public let minor: UInt16
    /// The expected RSSI at one metre, in dBm.
    public let measuredPower: Int8
    /// The advertiser's Bluetooth flags (`1A` in the seed, `06` from many beacons).
    public let flags: UInt8

    /// Creates an advertisement from its fields.
    public init(proximityUUID: UUID, major: UInt16, minor: UInt16, measuredPower: Int8, flags: UInt8 = 0x1A) {
        self.proximityUUID = proximityUUID
        self.major = major
        self.minor = minor
        self.measuredPower = measuredPower
        self.flags = flags
    }

    /// Parses the 30 bytes of advertising data. Zero bytes after them are accepted (scanners
    /// report the advertising data zero-padded to 31 or 62 bytes); any other trailing byte is not.
    public init(bytes input: some Collection<UInt8>) throws(BeaconParseError) {
        let bytes = Array(input)
        for (offset, expected) in Self.header.enumerated() {
            guard offset < bytes.count else {
                throw BeaconParseError(
                    .tooShort, offset: offset, expected: expected.meaning,
                    found: "end of data after \(bytes.count) bytes")
            }
            guard expected.byte == nil || bytes[offset] == expected.byte else {
                let isCompany = offset == 5 || offset == 6
                let found = isCompany ? Self.hex(bytes[5..<min(7, bytes.count)]) : Self.hex(bytes[offset...offset])
                throw BeaconParseError(
                    .unexpectedByte, offset: isCompany ? 5 : offset, expected: expected.meaning, found: found)
            }
        }
        let fields: [(offset: Int, size: Int, name: String)] = [
            (9, 16, "proximity UUID (16 bytes)"), (25, 2, "major (2 bytes)"), (27, 2, "minor (2 bytes)"),
            (29, 1, "measured power (1 byte)"),
        ]
        for field in fields where bytes.count < field.offset + field.size {
            throw BeaconParseError(
                .tooShort, offset: max(field.offset, bytes.count), expected: field.name,
                found: "end of data after \(bytes.count) bytes")
        }
        if let extra = bytes[Self.length...].firstIndex(where: { $0 != 0 }) {
            throw BeaconParseError(
                .trailingBytes, offset: extra, expected: "end of data (or zero padding) after 30 bytes",
                found: Self.hex(bytes[extra...extra]))
        }
        let u = bytes[9..<25].map { $0 }
        proximityUUID = UUID(
            uuid: (u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15])
        )
        major = UInt16(bytes[25]) << 8 | UInt16(bytes[26])
        minor = UInt16(bytes[27]) << 8 | UInt16(bytes[28])
        measuredPower = Int8(bitPattern: bytes[29])
        flags = bytes[2]
    }

    /// Parses hex text such as the seed's `02 01 1A 1A FF 4C 00 02 15 F2 A7 …`; spaces, tabs,
    /// newlines and colons between digits are ignored, case does not matter.
    public init(hex text: String) throws(BeaconParseError) {
        var bytes: [UInt8] = []
        var pending: UInt8?
        for (position, character) in text.enumerated() {
            if character.isWhitespace || character == ":" { continue }
            guard let digit = character.hexDigitValue, character.isASCII else {
                throw BeaconParseError(.badHex, offset: position, expected: "a hex digit", found: "\"\(character)\"")
            }
            if let high = pending {
                bytes.append(high << 4 | UInt8(digit))
                pending = nil
            } else {
                pending = UInt8(digit)
            }
        }
        if pending != nil {
            throw BeaconParseError(
                .badHex, offset: text.count, expected: "an even number of hex digits", found: "an odd number")
        }
        try self.init(bytes: bytes)
    }

    /// The 30 bytes of advertising data.
    public var bytes: [UInt8] {
        var result = Self.header.map { $0.byte ?? flags }
        withUnsafeBytes(of: proximityUUID.uuid) { result.append(contentsOf: $0) }
        result += [UInt8(major >> 8), UInt8(major & 0xFF), UInt8(minor >> 8), UInt8(minor & 0xFF)]
        result.append(UInt8(bitPattern: measuredPower))
        return result
    }

    /// The proximity of a sighting of this beacon at `rssi` dBm.
    public func proximity(rssi: Int) -> BeaconProximity {
        BeaconProximity(rssi: rssi, measuredPower: Int(measuredPower))
    }

    static func hex(_ bytes: ArraySlice<UInt8>) -> String {
        bytes.map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }.joined(separator: " ")
    }
}
