import EventLogTesting
import Foundation
import Testing

/// `muster documents get` over `--server`: a document is read by its uploader and by the recipients of a message
/// that shows it; anyone else is told what a missing document tells.
@Suite struct DocumentReadersCLITests {
    @Test func aMessagesRecipientReadsTheDocumentItShowsAndAStrangerIsRefused() async throws {
        let server = try await ServerProcess()
        let work = try TemporaryDirectory("document-readers")
        defer { work.remove() }
        let admin = try await server.login("ada", password: "secret-ada")
        for user in ["joe", "ann", "kim"] {
            let created = try await server.send(
                "POST", "api/v1/users", token: admin, json: #"{"username":"\#(user)","password":"secret-\#(user)"}"#)
            try #require(created.status == 201, "\(created.text)")
        }
        func terminal(_ user: String) async throws -> Terminal {
            let terminal = Terminal(work.url.appendingPathComponent("\(user)/session.json"))
            try await terminal.login(server.base, user, password: "secret-\(user)")
            return terminal
        }
        let joe = try await terminal("joe")
        let ann = try await terminal("ann")
        let kim = try await terminal("kim")
        let ada = try await terminal("ada")

        let bytes = MediaSamples.file("png", size: 3_000)
        let photo = work.url.appendingPathComponent("photo.png")
        try Data(bytes).write(to: photo)
        let put = try await joe.run(["documents", "put", photo.path])
        #expect(put.status == 0, "\(put)")
        let name = try #require(try put.json()["name"] as? String, "\(put)")
        #expect(name.hasPrefix("rcs/image/"))

        let copy = work.url.appendingPathComponent("copy.png")
        let early = try await ann.run(["documents", "get", name, "--output", copy.path])
        #expect(early.status == 2, "no message shows it to ann yet: \(early)")
        #expect(early.stderr.contains("you have no document \(name)"), "\(early)")
        #expect(!FileManager.default.fileExists(atPath: copy.path))

        let payload = #"{"responseTopic":"/look","fields":[{"type":"image","url":"\#(name)"}]}"#
        let sent = try await ada.run(["send", "--to", "ann", "--title", "Look", "--body", "The photo", payload])
        #expect(sent.status == 0, "\(sent)")

        let read = try await ann.run(["documents", "get", name, "--output", copy.path])
        #expect(read.status == 0, "\(read)")
        #expect(try Data(contentsOf: copy) == Data(bytes))
        let stranger = work.url.appendingPathComponent("stranger.png")
        let refused = try await kim.run(["documents", "get", name, "--output", stranger.path])
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.stderr.contains("you have no document \(name), nor a message showing it"), "\(refused)")
        #expect(!FileManager.default.fileExists(atPath: stranger.path), "nothing written for a stranger")
        let own = work.url.appendingPathComponent("own.png")
        let uploader = try await joe.run(["documents", "get", name, "--output", own.path])
        #expect(uploader.status == 0, "\(uploader)")
        #expect(try Data(contentsOf: own) == Data(bytes))
        #expect(await server.stop() == 0)
    }
}
