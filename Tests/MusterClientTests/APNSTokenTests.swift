import Foundation
import Testing

@testable import MusterClient

@Suite struct APNSTokenTests {
    @Test(
        arguments: [
            ([], ""),
            ([0x00], "00"),
            ([0x0F], "0f"),
            ([0xF0], "f0"),
            ([0xFF], "ff"),
            ([0xDE, 0xAD, 0xBE, 0xEF], "deadbeef"),
            ([0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF], "0123456789abcdef"),
        ] as [([UInt8], String)])
    func bytesBecomeLowercaseHex(_ bytes: [UInt8], _ expected: String) {
        #expect(MusterClient.convertAPNSToken(Data(bytes)) == expected)
    }

    @Test func aRealSizedTokenIsSixtyFourHexDigits() {
        let token = Data((0..<32).map { UInt8($0 * 8) })
        let hex = MusterClient.convertAPNSToken(token)
        #expect(hex.count == 64)
        #expect(hex.allSatisfy { "0123456789abcdef".contains($0) })
        #expect(hex.hasPrefix("0008101820"))
    }

    @Test func everyByteRoundTrips() {
        let token = Data((0...255).map { UInt8($0) })
        let hex = MusterClient.convertAPNSToken(token)
        var decoded = [UInt8]()
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            decoded.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        #expect(Data(decoded) == token)
    }

    @Test func aDataSliceIsConvertedFromItsOwnStart() {
        let whole = Data([0xAA, 0xBB, 0xCC, 0xDD])
        #expect(MusterClient.convertAPNSToken(whole[2...]) == "ccdd")
    }
}
