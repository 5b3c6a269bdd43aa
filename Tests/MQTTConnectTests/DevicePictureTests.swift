import Foundation
import MQTTConnect
import Testing

@Suite struct DevicePictureTests {
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0xFF, 0xD9])
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D])
    static let heic = Data([0x00, 0x00, 0x00, 0x18]) + Data("ftypheic".utf8) + Data(count: 8)

    @Test(arguments: [
        ("CameraContent", jpeg, "image/jpeg"), ("Image", png, "image/png"), ("CameraContent", heic, "image/heic"),
    ])
    func aBase64PictureIsDecodedWithItsMediaTypeSniffed(member: String, bytes: Data, mediaType: String) throws {
        let publication = try Fixture.read(#"{"\#(member)": "\#(bytes.base64EncodedString())"}"#).get()
        #expect(publication.picture == DevicePicture(member: member, data: bytes, mediaType: mediaType))
    }

    @Test func aDataURLAndLineBrokenBase64AreAccepted() throws {
        let text = Self.jpeg.base64EncodedString(options: .lineLength64Characters)
        let url = try Fixture.read(#"{"CameraContent": "data:image/jpeg;base64,\#(text)"}"#).get()
        #expect(url.picture?.data == Self.jpeg)
        let broken = Self.png.base64EncodedString().enumerated().map {
            $0.offset == 8 ? "\\r\\n\($0.element)" : "\($0.element)"
        }
        .joined()
        #expect(try Fixture.read(#"{"Image": "\#(broken)"}"#).get().picture?.mediaType == "image/png")
    }

    @Test(arguments: [
        (#"{"CameraContent": "not base64!"}"#, "is not base64 text"),
        (
            #"{"CameraContent": "\#(Data("hello".utf8).base64EncodedString())"}"#,
            "is base64 but not a JPEG, PNG or HEIC picture"
        ),
        (#"{"Image": "data:image/jpeg,abc"}"#, "is a data: URL without ;base64, data"),
    ])
    func somethingElseIsRefusedWithTheReason(body: String, reason: String) {
        guard case .failure(let refusal) = Fixture.read(body) else {
            Issue.record("\(body) was accepted")
            return
        }
        #expect(refusal.reason == reason)
        #expect(refusal.member != nil)
    }
}
