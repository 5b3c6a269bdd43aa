import Foundation
import Testing

extension WebAppBrowserTests {
    /// The form renderer in headless Chromium: a form of every answerable field type of seed 000 filled in by
    /// typing and clicking, the server's field errors shown on their fields, and media from the fake camera and
    /// microphone uploaded as documents whose names are the answers.
    @Suite(.serialized) struct FormFieldsTests {
        /// Every field type of seed 000; the answerable ones have ids.
        static let everyField = """
            {"responseTopic": "/web/form", "state": {"case": 7}, "fields": [
              {"type": "sectionLabel", "label": "About you"},
              {"type": "text", "label": "Answer every question.", "size": 20, "color": "#1d4f7a", "style": "italic"},
              {"type": "image", "label": "A picture", "url": "https://example.com/cat.jpg"},
              {"type": "document", "label": "Manual", "flavor": "pdf", "url": "https://example.com/manual.pdf"},
              {"type": "dashboard", "label": "Dashboard", "startTab": "Graph One"},
              {"id": "name", "type": "inputString", "label": "Your name", "placeholder": "Name"},
              {"id": "code", "type": "barcode", "label": "Machine code"},
              {"id": "count", "type": "inputInteger", "label": "How many?", "minValue": 1, "maxValue": 10},
              {"id": "level", "type": "inputInteger", "label": "Level", "flavor": "slider", "minValue": 0, "maxValue": 5,
               "default": 2},
              {"id": "weight", "type": "inputReal", "label": "Weight", "minValue": 0, "maxValue": 500, "units": "kg"},
              {"id": "agree", "type": "checkbox", "checkboxLabel": "I agree"},
              {"id": "born", "type": "date", "label": "Birthday"},
              {"id": "when", "type": "datetime", "label": "Appointment"},
              {"id": "colour", "type": "droplist", "label": "Colour", "values": ["Red", "Green", "Blue"]},
              {"id": "size", "type": "radioButtons", "label": "Size",
               "values": [{"label": "Small", "value": 1}, {"label": "Large", "value": 2}]},
              {"id": "spot", "type": "map", "label": "Where?", "location": {"longitude": -117.918974, "latitude": 33.812092},
               "markers": [{"label": "Space Mountain", "longitude": -117.917193, "latitude": 33.811379, "color": "blue"},
                           {"label": "Haunted Mansion", "longitude": -117.922675, "latitude": 33.811530}]},
              {"id": "now", "type": "currentDateTime"},
              {"id": "here", "type": "currentLocation"},
              {"id": "photo", "type": "camera", "label": "Photo"},
              {"id": "voice", "type": "audio", "label": "Say your name", "maxDurationSeconds": 1},
              {"id": "clip", "type": "video", "label": "Film it", "maxDurationSeconds": 1},
              {"id": "marked", "type": "markupImage", "label": "Circle it", "source": "camera"},
              {"type": "buttonCluster", "label": "Or", "values": [{"label": "Stop", "value": 3}, {"label": "Go", "value": 4}]},
              {"type": "inlineButton", "buttonLabel": "Done", "value": 1, "buttonBackgroundColor": "#1e6b34",
               "buttonLabelColor": "#ffffff"},
              {"type": "footerButton", "buttonLabel": "Later", "value": 2}
            ]}
            """

        @Test func everyAnswerableFieldIsFilledInTheBrowserAndTheResponseHoldsExactlyWhatWasEntered() async throws {
            let stage = try await WebAppStage.start()
            try await stage.running("form-every-field") {
                let driver = stage.driver
                try await stage.logIn("joe", password: "secret-joe")
                try await stage.place(latitude: 48.8566, longitude: 2.3522)
                try await stage.devTools("Emulation.setTimezoneOverride", ["timezoneId": "America/Los_Angeles"])
                let id = try await stage.send(to: "joe", title: "Inspection", payload: Self.everyField)
                try await stage.openMessage(id)

                // Sent empty, the form refuses by the server's rules: the error is on the field, linked and focused.
                try await driver.click(try await driver.find("button.inline-button"))
                let nameError = try await stage.field("name", ".field-error:not([hidden])")
                #expect(try await driver.text(of: nameError).contains("not optional"))
                let linked = try await stage.inField(
                    "name",
                    """
                    const input = box.querySelector('input'); const error = box.querySelector('.field-error');
                    return input.getAttribute('aria-invalid') === 'true'
                      && input.getAttribute('aria-describedby').split(' ').includes(error.id)
                      && document.activeElement === input;
                    """)
                #expect(linked as? Bool == true, "the error is the input's description and the input has the focus")
                #expect(
                    try await stage.inField("agree", "return box.querySelector('.field-error').hidden") as? Bool
                        == true,
                    "a checkbox is never wrong")

                // The map draws its markers without tiles (the stage serves none).
                try await driver.wait(
                    for: "the map's markers",
                    until: "return document.querySelectorAll('[data-field-id=\"spot\"] .leaflet-interactive, "
                        + "[data-field-id=\"spot\"] circle.marker').length === 2")

                try await driver.type("Joe Bloggs", into: try await stage.field("name"))
                try await driver.type("0123456789012", into: try await stage.field("code"))
                try await driver.type("7", into: try await stage.field("count"))
                try await driver.type("\u{E014}", into: try await stage.field("level"))  // → from the default 2 to 3
                try await driver.type("72.5", into: try await stage.field("weight"))
                try await driver.click(try await stage.field("agree"))
                try await driver.type("04201991", into: try await stage.field("born"))
                try await driver.type("04202026\u{E014}0930AM", into: try await stage.field("when"))
                try await driver.click(try await stage.field("colour", "option:nth-child(3)"))
                try await driver.click(try await stage.field("size", "label[for$='choice-1']"))
                try await driver.type("33.8115", into: try await stage.field("spot", "input[id$='latitude']"))
                try await driver.type("-117.92", into: try await stage.field("spot", "input[id$='longitude']"))

                try await driver.click(try await stage.field("photo", "button.capture"))
                try await stage.shoot()
                try await stage.waitForUpload("photo")
                try await driver.click(try await stage.field("voice", "button.capture"))
                try await stage.waitForUpload("voice")
                try await driver.click(try await stage.field("clip", "button.capture"))
                try await stage.waitForUpload("clip")
                try await driver.click(try await stage.field("marked", "button.capture"))
                try await stage.shoot()
                try await stage.drawStroke(on: "marked")
                try await driver.click(try await stage.field("marked", "button.markup-done"))
                try await stage.waitForUpload("marked")
                try await stage.browser.screenshot("form-every-field")

                let before = Date()
                try await driver.click(try await driver.find("button.inline-button"))
                _ = try await driver.find(".confirmation.sent")

                let uploads = try await stage.events("DocumentUploaded").compactMap { $0["name"] as? String }
                try #require(uploads.count == 4, "photo, voice, clip and marked: \(uploads)")
                let responses = try await stage.events("ResponseReceived")
                try #require(responses.count == 1)
                let response = try #require(responses[0]["response"] as? [String: Any])
                #expect(response["submitValue"] as? Int == 1, "the inline button Done")
                #expect((response["state"] as? [String: Any])?["case"] as? Int == 7)
                var values = try #require(response["values"] as? [String: Any])
                let now = try #require(values.removeValue(forKey: "now") as? String)
                let sentAt = try Date(now, strategy: .iso8601)
                #expect(sentAt >= before.addingTimeInterval(-1) && sentAt <= Date().addingTimeInterval(1), "\(now)")
                let expected: [String: Any] = [
                    "name": "Joe Bloggs", "code": "0123456789012", "count": 7, "level": 3, "weight": 72.5,
                    "agree": true,
                    "born": "1991-04-20", "when": "2026-04-20T09:30-07:00", "colour": "Green", "size": 2,
                    "spot": ["latitude": 33.8115, "longitude": -117.92],
                    "here": ["latitude": 48.8566, "longitude": 2.3522],
                    "photo": uploads[0], "voice": uploads[1], "clip": uploads[2], "marked": uploads[3],
                ]
                #expect(NSDictionary(dictionary: values) == NSDictionary(dictionary: expected), "\(values)")
            }
        }

        /// The form as first sent: a colour of three and an optional note.
        static let colours = """
            {"responseTopic": "/web/colours", "fields": [
              {"id": "colour", "type": "droplist", "label": "Colour", "values": ["Red", "Green", "Blue"]},
              {"id": "note", "type": "inputString", "label": "Note", "optional": true}
            ]}
            """
        /// The same named payload replaced while the person answers: Green is gone, the note is required and a badge
        /// field is new — what the browser cannot know, the server refuses.
        static let coloursChanged = """
            {"responseTopic": "/web/colours", "fields": [
              {"id": "colour", "type": "droplist", "label": "Colour", "values": ["Red", "Blue"]},
              {"id": "note", "type": "inputString", "label": "Note"},
              {"id": "badge", "type": "inputString", "label": "Badge"}
            ]}
            """

        @Test(arguments: [
            (
                ["--dashboard-url", "https://dash.example.com/board?tab={tab}"],
                "https://dash.example.com/board?tab=Graph%20One"
            ),
            ([], nil),
        ])
        func aDashboardFieldLeadsWhereTheServerSaysOrSaysThereIsNone(extra: [String], expected: String?) async throws {
            let stage = try await WebAppStage.start(serveArguments: ["--no-push", "--map-tiles", ""] + extra)
            try await stage.running("form-dashboard") {
                try await stage.logIn("joe", password: "secret-joe")
                let id = try await stage.send(
                    to: "joe", title: "Board",
                    payload:
                        #"{"responseTopic":"/d","fields":[{"type":"dashboard","label":"Sales","startTab":"Graph One"}]}"#
                )
                try await stage.openMessage(id)
                if let expected {
                    let link = try await stage.driver.find("a.dashboard-link:not([hidden])")
                    #expect(
                        try await stage.driver.run(
                            "return arguments[0].href", [["element-6066-11e4-a52e-4f735466cecf": link.id]]) as? String
                            == expected)
                    #expect(try await stage.driver.text(of: link) == "View the Dashboard")
                } else {
                    let none = try await stage.driver.find("p.dashboard-none")
                    #expect(try await stage.driver.text(of: none) == "This server has no dashboard to show.")
                    #expect(
                        try await stage.driver.run("return document.querySelector('a.dashboard-link').hidden") as? Bool
                            == true)
                }
            }
        }

        @Test func theServersFieldErrorsAreShownOnTheirFields() async throws {
            let stage = try await WebAppStage.start()
            try await stage.running("form-server-errors") {
                let driver = stage.driver
                let data = stage.server.data
                #expect(
                    try await stage.server.run(["payloads", "put", "Colours", "--json", Self.colours] + data).status
                        == 0)
                try await stage.logIn("joe", password: "secret-joe")
                let id = try await stage.send(
                    to: "joe", title: "Colours",
                    payload: #"{"responseTopic": "/web/colours", "payloadName": "Colours"}"#)
                try await stage.openMessage(id)
                let changed = try await stage.server.run(
                    ["payloads", "put", "Colours", "--json", Self.coloursChanged] + data)
                #expect(changed.status == 0, "\(changed)")

                try await driver.click(try await stage.field("colour", "option:nth-child(3)"))  // Green
                try await driver.click(try await driver.find(".form-footer button"))
                let colourError = try await stage.field("colour", ".field-error:not([hidden])")
                let colourText = try await driver.text(of: colourError)
                #expect(
                    colourText.contains("Green") && colourText.contains("not-in-values"),
                    "the server's words: \(colourText)")
                #expect(
                    try await driver.text(of: try await stage.field("note", ".field-error")).contains("value-required"))
                let linked = try await stage.inField(
                    "colour",
                    """
                    const select = box.querySelector('select'); const error = box.querySelector('.field-error');
                    return select.getAttribute('aria-invalid') === 'true'
                      && select.getAttribute('aria-describedby').split(' ').includes(error.id)
                      && document.activeElement === select;
                    """)
                #expect(linked as? Bool == true, "the error describes the select, which has the focus")
                let summary = try await driver.text(of: try await driver.find(".form-summary:not([hidden])"))
                #expect(summary.contains("badge"), "a field the page does not show is named in the summary: \(summary)")
                #expect(try await stage.events("ResponseReceived").isEmpty)
                try await stage.browser.screenshot("form-server-errors")

                // Opened again, the form is the new one, and the answer goes.
                try await driver.run("location.reload()")
                try await driver.wait(
                    for: "the changed form",
                    until: "return document.querySelector('[data-field-id=\"badge\"] input') !== null")
                try await driver.click(try await stage.field("colour", "option:nth-child(3)"))  // Blue
                try await driver.type("Checked", into: try await stage.field("note"))
                try await driver.type("B-7", into: try await stage.field("badge"))
                try await driver.click(try await driver.find(".form-footer button"))
                _ = try await driver.find(".confirmation.sent")
                let responses = try await stage.events("ResponseReceived")
                let values = (responses.first?["response"] as? [String: Any])?["values"] as? [String: Any] ?? [:]
                #expect(
                    NSDictionary(dictionary: values)
                        == NSDictionary(dictionary: ["colour": "Blue", "note": "Checked", "badge": "B-7"]), "\(values)")

                // Answered twice: the server's 409 is said as such.
                try await driver.run("location.reload()")
                try await driver.wait(
                    for: "the form again",
                    until: "return document.querySelector('[data-field-id=\"badge\"] input') !== null")
                try await driver.click(try await stage.field("colour", "option:nth-child(2)"))
                try await driver.type("Again", into: try await stage.field("note"))
                try await driver.type("B-8", into: try await stage.field("badge"))
                try await driver.click(try await driver.find(".form-footer button"))
                _ = try await driver.find(".confirmation.answered")
                #expect(try await stage.events("ResponseReceived").count == 1)
            }
        }

        /// Capture fields only: a photo taken twice (the second counts), a clip of each kind and a marked-up photo;
        /// an optional photo left alone is null.
        static let media = """
            {"responseTopic": "/web/media", "fields": [
              {"id": "photo", "type": "camera", "label": "Photo"},
              {"id": "spare", "type": "camera", "label": "Another photo", "optional": true},
              {"id": "voice", "type": "audio", "label": "Say your name", "maxDurationSeconds": 1},
              {"id": "clip", "type": "video", "label": "Film it", "maxDurationSeconds": 20},
              {"id": "marked", "type": "markupImage", "label": "Circle it", "source": "camera"}
            ]}
            """

        @Test func mediaFromTheFakeCameraAndMicrophoneIsUploadedAndItsNameIsTheAnswer() async throws {
            let stage = try await WebAppStage.start()
            try await stage.running("form-media") {
                let driver = stage.driver
                try await stage.logIn("joe", password: "secret-joe")
                let id = try await stage.send(to: "joe", title: "Media", payload: Self.media)
                try await stage.openMessage(id)

                try await driver.click(try await stage.field("photo", "button.capture"))
                try await stage.shoot()
                try await stage.waitForUpload("photo")
                try await driver.click(try await stage.field("photo", ".capture-result button"))  // Remove
                #expect(
                    try await stage.inField("photo", "return box.querySelector('img.captured') === null") as? Bool
                        == true)
                try await driver.click(try await stage.field("photo", "button.capture"))
                try await stage.shoot()
                try await stage.waitForUpload("photo")

                try await driver.click(try await stage.field("voice", "button.capture"))  // stops itself after 1 s
                try await stage.waitForUpload("voice")

                try await driver.click(try await stage.field("clip", "button.capture"))
                try await driver.wait(
                    for: "the video recording",
                    until: "return document.querySelector('[data-field-id=\"clip\"] .record-clock').textContent !== ''")
                try await driver.click(try await stage.field("clip", "button.capture"))  // Stop recording
                try await stage.waitForUpload("clip")

                try await driver.click(try await stage.field("marked", "button.capture"))
                try await stage.shoot()
                try await stage.drawStroke(on: "marked")
                try await driver.click(try await stage.field("marked", "button.markup-done"))
                try await stage.waitForUpload("marked")
                #expect(
                    try await stage.inField(
                        "voice", "return box.querySelector('audio.captured').src.startsWith('blob:')")
                        as? Bool == true, "the clip can be played back before sending")
                try await stage.browser.screenshot("form-media")

                try await driver.click(try await driver.find(".form-footer button"))
                _ = try await driver.find(".confirmation.sent")

                let uploads = try await stage.events("DocumentUploaded")
                try #require(uploads.count == 5, "two photos, a clip of each kind and the marked-up photo")
                #expect(uploads.map { $0["kind"] as? String } == ["image", "image", "audio", "video", "image"])
                #expect(uploads.allSatisfy { $0["uploader"] as? String == "joe" && ($0["size"] as? Int ?? 0) > 0 })
                let types = uploads.map { $0["contentType"] as? String ?? "" }
                #expect(types[0] == "image/jpeg" && types[1] == "image/jpeg" && types[4] == "image/jpeg", "\(types)")
                #expect(types[2].hasPrefix("audio/") && types[3].hasPrefix("video/"), "\(types)")
                let names = uploads.map { $0["name"] as? String ?? "" }
                let response = try #require(
                    try await stage.events("ResponseReceived").first?["response"] as? [String: Any])
                let values = try #require(response["values"] as? [String: Any])
                #expect(values["photo"] as? String == names[1], "the second photo replaced the first")
                #expect(values["spare"] is NSNull, "an optional capture left alone is null")
                #expect(values["voice"] as? String == names[2])
                #expect(values["clip"] as? String == names[3])
                #expect(values["marked"] as? String == names[4])
                #expect(names[2].hasPrefix("rcs/audio/") && names[3].hasPrefix("rcs/video/"))
            }
        }
    }
}
