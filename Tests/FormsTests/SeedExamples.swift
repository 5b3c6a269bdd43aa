import Forms
import Foundation

/// The field examples of seed 000 (lines 186–935), copied verbatim except three slips:
/// `video1` → `video` (decided), the sectionLabel trailing comma dropped, and the inlineButton value 100 → 101
/// so that it does not collide with the footerButton example in `all`.
enum SeedExamples {
    static let fields: [(type: FieldType, json: String)] = [
        (
            .audio,
            #"{"id": "audio1", "type": "audio", "label": "Speak your full name", "maxDurationSeconds": 20, "maxSizeK": 200, "placeholder": "Record the clip"}"#
        ),
        (
            .document,
            #"{"id": "playbackAudio1", "type": "document", "label": "Listen to the recorded audio clip", "flavor": "vaudio", "url": "rcs/audio/f9ceddab-add2-4b10-a602-65f82cc0a9da.m4a"}"#
        ),
        (.barcode, #"{"id": "barcode1", "type": "barcode", "placeholder": "Scan the UPC on the machine"}"#),
        (
            .buttonCluster,
            #"{"id": "setOfButtons", "type": "buttonCluster", "label": "Click a button", "values": [{"label": "Stop", "value": 1}, {"label": "Go", "value": 2}, {"label": "Abort", "value": 3}]}"#
        ),
        (.camera, #"{"id": "mySelfie", "type": "camera", "placeholder": "Take snapshot"}"#),
        (
            .document,
            #"{"id": "viewJPEG1", "type": "document", "label": "View the snapshot", "flavor": "vimage", "url": "rcs/image/a20ab0c1-337d-4ace-af30-3c7b9136d0be.jpg"}"#
        ),
        (.checkbox, #"{"id": "cb", "type": "checkbox", "checkboxLabel": "Check Me", "default": true}"#),
        (.currentDateTime, #"{"id": "now", "type": "currentDateTime"}"#),
        (.currentLocation, #"{"id": "here", "type": "currentLocation"}"#),
        (
            .datetime,
            #"{"id": "timeOfBirth", "type": "datetime", "label": "When was your birth day and time?", "default": "1991-04-20T09:30-07:00"}"#
        ),
        (.date, #"{"id": "birthDate", "type": "date", "label": "When was your birthday?", "default": "1991-04-20"}"#),
        (.dashboard, #"{"type": "dashboard", "label": "View my Dashboard", "startTab": "Graph One"}"#),
        (
            .document,
            #"{"type": "document", "label": "View a PDF Document", "flavor": "pdf", "url": "http://www.myhost.com/InstructionManual.pdf", "placeholder": "View it"}"#
        ),
        (
            .document,
            #"{"type": "document", "label": "View an HTML Document", "flavor": "html", "url": "https://www.google.com", "placeholder": "Show me"}"#
        ),
        (
            .droplist,
            #"{"id": "simpleDropList", "type": "droplist", "label": "Pick a color (simple)", "values": ["Red","Green","Blue"], "default": "Blue"}"#
        ),
        (
            .droplist,
            #"{"id": "complexDropList", "type": "droplist", "label": "Pick a color (complex)", "values": [{"label": "Red", "value": 1}, {"label": "Green", "value": 2}, {"label": "Blue", "value": 3}], "default": 2}"#
        ),
        (.footerButton, #"{"type": "footerButton", "buttonLabel": "Stop", "value": 100}"#),
        (
            .image,
            #"{"id": "kitty", "type": "image", "label": "My Cat", "size": 40, "align": "center", "url": "https://pixabay.com/static/uploads/photo/2014/03/29/09/17/cat-300572_960_720.jpg"}"#
        ),
        (
            .inlineButton,
            ##"{"type": "inlineButton", "buttonLabel": "Stop", "buttonLabelSize": 40, "buttonLabelColor": "#ffffff", "buttonBackgroundColor": "#ff0000", "value": 101}"##
        ),
        (
            .inputInteger,
            #"{"id": "input1", "type": "inputInteger", "label": "Enter an Integer", "default": 0, "placeholder": "A Hint", "minValue": -10, "maxValue": 20}"#
        ),
        (
            .inputInteger,
            #"{"id": "input2", "type": "inputInteger", "label": "Enter an Integer (Slider)", "flavor": "slider", "default": 0, "minValue": -10, "maxValue": 20}"#
        ),
        (
            .inputReal,
            #"{"id": "input3", "type": "inputReal", "label": "Enter a Number", "default": 0, "placeholder": "Hint", "minValue": -10.0, "maxValue": 20.0, "units": "ms"}"#
        ),
        (
            .inputReal,
            #"{"id": "input4", "type": "inputReal", "label": "Enter a Number (Slider)", "flavor": "slider", "default": 0, "minValue": -10.0, "maxValue": 20.0, "units": "ms"}"#
        ),
        (
            .inputString,
            #"{"id": "yourName", "type": "inputString", "label": "Enter your name", "placeholder": "Your name here"}"#
        ),
        (
            .map,
            #"{"id": "myFavoriteRide", "type": "map", "label": "Disneyland", "location": {"longitude": -117.918974, "latitude": 33.812092}, "markers": [{"label": "Space Mountain", "longitude": -117.917193, "latitude": 33.811379}, {"label": "Haunted Mansion", "longitude": -117.922675, "latitude": 33.811530 }]}"#
        ),
        (
            .map,
            #"{"id": "dland", "type": "map", "label": "DisneyLand", "location": {"longitude":-117.918974,"latitude":33.812092}, "markers": [{"label": "Space Mountain","longitude":-117.917193,"latitude":33.811379}, {"label": "Haunted Mansion","longitude":-117.922675,"latitude":33.811530}], "placeholder": "Show it"}"#
        ),
        (.markupImage, #"{"id": "myMarkedUpImage", "type": "markupImage", "source": "camera"}"#),
        (
            .radioButtons,
            #"{"id": "simplwRadioButtons", "type": "radioButtons", "label": "Pick a color (simple)", "values": ["Red","Green","Blue"], "default": "Blue"}"#
        ),
        (
            .radioButtons,
            #"{"id": "complexRadioButtons", "type": "radioButtons", "label": "Pick a color (complex)", "values": [{"label": "Red", "value": 1}, {"label": "Green", "value": 2}, {"label": "Blue", "value": 3}], "default": 2}"#
        ),
        (.sectionLabel, #"{"type": "sectionLabel", "label": "Important Section"}"#),
        (.text, ##"{"type": "text", "label": "Hello, World!", "size": 40, "color": "#00ff00"}"##),
        (
            .video,
            #"{"id": "video1", "type": "video", "label": "Record a video clip of your surroundings", "maxDurationSeconds": 20, "maxSizeK": 2000, "placeholder": "Begin"}"#
        ),
        (
            .document,
            #"{"id": "playbackVideo1", "type": "document", "label": "Play back the recorded video clip", "flavor": "vvideo", "url": "rcs/video/15879441-7910-445e-81e6-fd91a2a7d28e.mp4"}"#
        ),
    ]

    /// The seed's response object example (lines 976–987).
    static let response = #"""
        {
            "responseTopic": "/a/b/c",
            "submitValue": 0,
            "username": "joeuser@gmail.com",
            "deviceId": "75e0540bf21638bd",
            "deviceName": "HTC Desire 310",
            "values":
            {
                "simpleDropList": "Green"
            },
            "state": {"myStateData":123}
        }
        """#

    /// A payload holding one field, with the seed's topic.
    static func payload(_ field: String, state: String? = nil) -> Payload {
        let stateText = state.map { #", "state": \#($0)"# } ?? ""
        return Payload.parse(Data(#"{"responseTopic": "/a/b/c", "fields": [\#(field)]\#(stateText)}"#.utf8))
    }

    /// A payload holding every seed field example.
    static var all: Payload {
        Payload.parse(
            Data(
                #"{"responseTopic": "/a/b/c", "fields": [\#(fields.map(\.json).joined(separator: ", "))], "state": {"myStateData":123}}"#
                    .utf8))
    }
}
