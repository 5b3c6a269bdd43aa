import EventLog
import EventLogTesting
import Forms
import Foundation
import Muster
import MusterWire
import Testing

/// Seed 000's media fields: "the captured audio file is … uploaded into an ArsDocument record in the user's
/// namespace … This generated name will be the value of the audio field returned in the response object."
@Suite struct MediaAnswerTests {
    /// A form with one field of each media type; the audio takes 20 s and 200 KB at most, as the seed's example.
    static let mediaForm = Data(
        #"""
        {"responseTopic": "/media", "fields": [
          {"id": "audio1", "type": "audio", "maxDurationSeconds": 20, "maxSizeK": 200, "optional": true},
          {"id": "mySelfie", "type": "camera", "optional": true},
          {"id": "video1", "type": "video", "maxDurationSeconds": 5, "optional": true},
          {"id": "myMarkedUpImage", "type": "markupImage", "source": "camera", "optional": true}
        ]}
        """#.utf8)

    struct Fixture {
        let t: TestLog
        let log: EventLog
        let documents: Documents
        let notifications: Notifications

        /// Uploads `bytes` as `user`'s document of `kind`.
        func upload(_ bytes: [UInt8], _ kind: MediaKind, by user: String) async throws -> String {
            try await documents.put(
                AsyncStream {
                    $0.yield(bytes); $0.finish()
                }, kind: kind, user: user
            ).name
        }

        /// Sends the media form to joe and answers it as joe with `values`.
        func answer(_ values: [String: JSONValue], deviceId: String = "75e0540bf21638bd") async throws
            -> Notifications.Answer
        {
            let sent = try await notifications.send(to: ["joe"], title: "Media", body: "", payload: mediaForm)
            return try await notifications.respond(
                messageId: sent.messageIds[0], answers: values, as: Respondent(user: "joe", deviceId: deviceId))
        }
    }

    func fixture() async throws -> Fixture {
        let t = try TestLog()
        let log = try t.open { $0.projections += MusterDomain.projections }
        for name in ["joe", "ann", "kim"] { try await Directory(log: log).addUser(name, password: nil) }
        return Fixture(t: t, log: log, documents: Documents(log: log), notifications: Notifications(log: log))
    }

    /// The rules a refusal broke, by field id.
    func rules(_ answering: () async throws -> Notifications.Answer) async -> [String: String] {
        do {
            _ = try await answering()
            return [:]
        } catch let rejection as FormRejection {
            return Dictionary(uniqueKeysWithValues: rejection.problems.map { ($0.field, $0.message) })
        } catch {
            return ["unexpected": "\(error)"]
        }
    }

    @Test func theNamesOfTheRespondersOwnUploadsAreRecordedAsTheValues() async throws {
        let f = try await fixture()
        defer { f.t.directory.remove() }
        let audio = try await f.upload(RecordedMedia.wav(seconds: 3), .audio, by: "joe")
        let photo = try await f.upload(MediaSamples.file("jpeg"), .image, by: "joe")
        let video = try await f.upload(RecordedMedia.mp4(seconds: 4), .video, by: "joe")
        let marked = try await f.upload(MediaSamples.file("png"), .image, by: "joe")
        let answer = try await f.answer([
            "audio1": .string(audio), "mySelfie": .string(photo), "video1": .string(video),
            "myMarkedUpImage": .string(marked),
        ])
        #expect(answer.response.values["audio1"] == .string(audio))
        #expect(answer.response.values["video1"] == .string(video))
        #expect(answer.response.values["myMarkedUpImage"] == .string(marked))
    }

    @Test func aNameOfNoDocumentOrOfAnotherUsersDocumentIsAFieldError() async throws {
        let f = try await fixture()
        defer { f.t.directory.remove() }
        let annsPhoto = try await f.upload(MediaSamples.file("jpeg"), .image, by: "ann")
        let refused = await rules {
            try await f.answer([
                "audio1": .string("rcs/audio/f9ceddab-add2-4b10-a602-65f82cc0a9da.m4a"), "mySelfie": .string(annsPhoto),
            ])
        }
        #expect(refused.keys.sorted() == ["audio1", "mySelfie"])
        #expect(refused["audio1"]?.contains("no document joe uploaded") == true)
        #expect(refused["audio1"]?.contains("[unknown-document]") == true)
        #expect(refused["mySelfie"]?.contains("[unknown-document]") == true)
        // Nothing was recorded: the message still waits.
        #expect(try f.notifications.inbox(user: "joe").count == 1)
    }

    @Test func aDocumentAboveTheFieldsMaxSizeKIsAFieldError() async throws {
        let f = try await fixture()
        defer { f.t.directory.remove() }
        // 200 KB is 204,800 bytes: one byte more is too large, that many is not.
        let fits = try await f.upload(MediaSamples.file("m4a", size: 200 * 1024), .audio, by: "joe")
        let large = try await f.upload(MediaSamples.file("m4a", size: 200 * 1024 + 1), .audio, by: "joe")
        #expect(try await f.answer(["audio1": .string(fits)]).response.values["audio1"] == .string(fits))
        let refused = await rules { try await f.answer(["audio1": .string(large)]) }
        #expect(refused["audio1"]?.contains("maxSizeK of 200") == true, "\(refused)")
        #expect(refused["audio1"]?.contains("[document-too-large]") == true)
    }

    @Test func aRecordingLongerThanTheFieldsMaxDurationSecondsIsAFieldError() async throws {
        let f = try await fixture()
        defer { f.t.directory.remove() }
        let long = try await f.upload(RecordedMedia.wav(seconds: 21), .audio, by: "joe")
        let longVideo = try await f.upload(RecordedMedia.webm(seconds: 7.5), .video, by: "joe")
        let refused = await rules { try await f.answer(["audio1": .string(long), "video1": .string(longVideo)]) }
        #expect(refused["audio1"]?.contains("lasts 21.0 s, longer than the field's maxDurationSeconds of 20") == true)
        #expect(refused["video1"]?.contains("[document-too-long]") == true, "\(refused)")
        // A WebM without a duration (a browser's recording) is not checked for length.
        let untold = try await f.upload(RecordedMedia.webm(seconds: nil), .video, by: "joe")
        #expect(try await f.answer(["video1": .string(untold)]).response.values["video1"] == .string(untold))
    }

    @Test func uploadsRecordTheDurationTheirHeadersTell() async throws {
        let f = try await fixture()
        defer { f.t.directory.remove() }
        let samples: [([UInt8], MediaKind, UInt64?)] = [
            (RecordedMedia.wav(seconds: 2.5), .audio, 2500), (RecordedMedia.mp4(seconds: 12.25), .video, 12250),
            (RecordedMedia.mp4(seconds: 3, brand: "M4A "), .audio, 3000),
            (RecordedMedia.webm(seconds: 9), .video, 9000),
            (RecordedMedia.webm(seconds: nil), .video, nil), (MediaSamples.file("mp3"), .audio, nil),
            (MediaSamples.file("jpeg"), .image, nil),
        ]
        for (bytes, kind, milliseconds) in samples {
            let name = try await f.upload(bytes, kind, by: "joe")
            #expect(try f.documents.document(name)?.durationMilliseconds == milliseconds, "\(name)")
        }
    }

    @Test func documentsAMessageShowsAreReadableByItsRecipientsOnly() async throws {
        let f = try await fixture()
        defer { f.t.directory.remove() }
        let clip = try await f.upload(RecordedMedia.wav(seconds: 1), .audio, by: "joe")
        let photo = try await f.upload(MediaSamples.file("jpeg"), .image, by: "joe")
        let unshown = try await f.upload(MediaSamples.file("png"), .image, by: "joe")
        #expect(try f.documents.document(clip, readableBy: "ann") == nil)
        let playback = Data(
            #"""
            {"responseTopic": "/listen", "fields": [
              {"id": "playbackAudio1", "type": "document", "flavor": "vaudio", "url": "\#(clip)"},
              {"type": "image", "url": "\#(photo)"}, {"type": "text", "label": "\#(unshown) is not shown"}
            ]}
            """#.utf8)
        _ = try await f.notifications.send(to: ["ann"], title: "Listen", body: "", payload: playback)
        #expect(try f.documents.document(clip, readableBy: "ann")?.name == clip)
        #expect(try f.documents.document(photo, readableBy: "ann")?.name == photo)
        #expect(try f.documents.document(unshown, readableBy: "ann") == nil)
        #expect(try f.documents.document(clip, readableBy: "kim") == nil)
        #expect(try f.documents.document(unshown, readableBy: "joe")?.name == unshown)
    }

    @Test func documentsANamedPayloadShowsAreReadableByThoseSentItByName() async throws {
        let f = try await fixture()
        defer { f.t.directory.remove() }
        let clip = try await f.upload(RecordedMedia.wav(seconds: 1), .audio, by: "joe")
        let photo = try await f.upload(MediaSamples.file("jpeg"), .image, by: "joe")
        let added = try await f.upload(MediaSamples.file("png"), .image, by: "joe")
        let named = NamedPayloads(log: f.log)
        try await named.put(
            "briefing",
            payload: Data(
                #"{"responseTopic": "/b", "fields": [{"type": "document", "flavor": "vaudio", "url": "\#(clip)"}]}"#
                    .utf8))
        // By name, with a field of its own added; the slash escaped as JSON allows.
        let escaped = photo.replacingOccurrences(of: "/", with: "\\/")
        _ = try await f.notifications.send(
            to: ["ann"], title: "Listen", body: "",
            payload: Data(#"{"payloadName": "briefing", "fields": [{"type": "image", "url": "\#(escaped)"}]}"#.utf8))
        #expect(try f.documents.document(clip, readableBy: "ann")?.name == clip)
        #expect(try f.documents.document(photo, readableBy: "ann")?.name == photo)
        #expect(try f.documents.document(clip, readableBy: "kim") == nil)
        #expect(try f.documents.document(added, readableBy: "ann") == nil)
        // The message shows the named payload as it is when fetched: stored again, what it now shows is granted.
        try await named.put(
            "briefing",
            payload: Data(#"{"responseTopic": "/b", "fields": [{"type": "image", "url": "\#(added)"}]}"#.utf8))
        #expect(try f.documents.document(added, readableBy: "ann")?.name == added)
        #expect(try f.documents.document(added, readableBy: "kim") == nil)
        // And the same after a rebuild from the log.
        try await f.log.rebuild([DocumentsProjection.name])
        #expect(try f.documents.document(added, readableBy: "ann")?.name == added)
        #expect(try f.documents.document(clip, readableBy: "ann")?.name == clip)
        #expect(try f.documents.document(photo, readableBy: "kim") == nil)
    }

    /// A message sent to the wrong person and withdrawn no longer lets them read what it showed; another message that
    /// shows it still does. So for a message by a payload's name, and what the payload shows once stored again.
    @Test func aWithdrawnMessageNoLongerLetsItsRecipientReadWhatItShowed() async throws {
        let f = try await fixture()
        defer { f.t.directory.remove() }
        let photo = try await f.upload(MediaSamples.file("jpeg"), .image, by: "joe")
        let plan = try await f.upload(MediaSamples.file("png"), .image, by: "joe")
        let added = try await f.upload(MediaSamples.file("png", size: 2_000), .image, by: "joe")
        let showing = { (name: String) in
            Data(#"{"responseTopic": "/p", "fields": [{"type": "image", "url": "\#(name)"}]}"#.utf8)
        }
        let once = try await f.notifications.send(to: ["ann"], title: "Plan", body: "", payload: showing(plan))
        let twice = try await f.notifications.send(to: ["ann", "kim"], title: "A", body: "", payload: showing(photo))
        _ = try await f.notifications.send(to: ["ann"], title: "B", body: "", payload: showing(photo))
        try await NamedPayloads(log: f.log).put("briefing", payload: showing(photo))
        let byName = try await f.notifications.send(
            to: ["kim"], title: "C", body: "", payload: Data(#"{"payloadName": "briefing"}"#.utf8))

        try await f.notifications.withdraw(once.messageIds + twice.messageIds + byName.messageIds)

        #expect(try f.documents.document(plan, readableBy: "ann") == nil, "its only message was withdrawn")
        #expect(try f.documents.document(photo, readableBy: "ann")?.name == photo, "message B still shows it")
        #expect(try f.documents.document(photo, readableBy: "kim") == nil, "both of kim's were withdrawn")
        try await NamedPayloads(log: f.log).put("briefing", payload: showing(added))
        #expect(try f.documents.document(added, readableBy: "kim") == nil, "shown only by a withdrawn message")
        #expect(try f.documents.document(plan, readableBy: "joe")?.name == plan, "its uploader reads it")
        try await f.log.rebuild([DocumentsProjection.name])
        #expect(try f.documents.document(plan, readableBy: "ann") == nil)
        #expect(try f.documents.document(photo, readableBy: "ann")?.name == photo)
    }

    @Test func aResponsesDeviceIdMustBeRegisteredWhenTheNamespaceRequiresIt() async throws {
        let f = try await fixture()
        defer { f.t.directory.remove() }
        // Off by default: any device id is recorded as given.
        #expect(try await f.answer([:], deviceId: "unknown-tablet").response.deviceId == "unknown-tablet")
        try await Settings(log: f.log).set(.requireRegisteredDevice, to: "on")
        do {
            _ = try await f.answer([:], deviceId: "unknown-tablet")
            Issue.record("an unregistered device's response was recorded")
        } catch let error as MusterError {
            #expect(error.field == "deviceId")
            #expect(error.message.contains("register the device"), "\(error)")
        }
        try await Directory(log: f.log).register(
            PushTargetRegistered(
                user: "joe", deviceId: "75e0540bf21638bd", deviceName: "HTC Desire 310", platform: .fcm, token: "t"))
        let answer = try await f.answer([:])
        #expect(answer.response.deviceName == "HTC Desire 310")
        #expect(try Settings(log: f.log).value(.requireRegisteredDevice) == "true")
    }
}
