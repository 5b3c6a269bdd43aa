import Foundation
import Testing

@testable import MusterClient

/// One stream and what the HTML standard's event-stream interpretation makes of it.
struct StreamCase: Sendable, CustomTestStringConvertible {
    var name: String
    var stream: [UInt8]
    var events: [ServerSentEvent]
    var lastEventId = ""
    var reconnectionTime: Duration?

    init(
        _ name: String, _ stream: String, _ events: [ServerSentEvent], lastEventId: String = "",
        retry: Duration? = nil
    ) {
        self.name = name
        self.stream = Array(stream.utf8)
        self.events = events
        self.lastEventId = lastEventId
        self.reconnectionTime = retry
    }

    var testDescription: String { name }
}

private func event(_ data: String, type: String = "message", id: String = "") -> ServerSentEvent {
    ServerSentEvent(type: type, data: data, lastEventId: id)
}

let streamCases: [StreamCase] = [
    StreamCase("one data line", "data: hello\n\n", [event("hello")]),
    StreamCase("data lines join with LF", "data: a\ndata: b\ndata: c\n\n", [event("a\nb\nc")]),
    StreamCase("event names the type", "event: response\ndata: {}\n\n", [event("{}", type: "response")]),
    StreamCase("type resets after dispatch", "event: x\ndata: 1\n\ndata: 2\n\n", [event("1", type: "x"), event("2")]),
    StreamCase("empty event field means message", "event:\ndata: a\n\n", [event("a")]),
    StreamCase("type without data is dropped", "event: x\n\ndata: b\n\n", [event("b")]),
    StreamCase("id is carried", "id: 7\ndata: x\n\n", [event("x", id: "7")], lastEventId: "7"),
    StreamCase(
        "id is kept across events", "id: 7\ndata: x\n\ndata: y\n\n", [event("x", id: "7"), event("y", id: "7")],
        lastEventId: "7"),
    StreamCase(
        "id changes per event", "id: 1\ndata: a\n\nid: 2\ndata: b\n\n", [event("a", id: "1"), event("b", id: "2")],
        lastEventId: "2"),
    StreamCase(
        "empty id resets it", "id: 7\ndata: x\n\nid\ndata: y\n\n", [event("x", id: "7"), event("y")]),
    StreamCase(
        "id with NUL is ignored", "id: 1\ndata: a\n\nid: 2\u{0}3\ndata: b\n\n",
        [event("a", id: "1"), event("b", id: "1")], lastEventId: "1"),
    StreamCase("id without data still sets the last id", "id: 9\n\n", [], lastEventId: "9"),
    StreamCase(
        "id set after data applies to that event", "data: a\nid: 5\n\n", [event("a", id: "5")], lastEventId: "5"),
    StreamCase("id without a blank line is not applied", "id: 3\n", [], lastEventId: ""),
    StreamCase("retry sets the reconnection time", "retry: 2500\n\n", [], retry: .milliseconds(2500)),
    StreamCase("retry zero", "retry: 0\n", [], retry: .zero),
    StreamCase("retry with a letter is ignored", "retry: 25x\n\n", []),
    StreamCase("negative retry is ignored", "retry: -1\n\n", []),
    StreamCase("retry with two spaces is ignored", "retry:  10\n\n", []),
    StreamCase("empty retry is ignored", "retry\n\n", []),
    StreamCase("later retry wins", "retry: 100\nretry: 200\n", [], retry: .milliseconds(200)),
    StreamCase(
        "retry does not disturb data", "data: a\nretry: 7\ndata: b\n\n", [event("a\nb")], retry: .milliseconds(7)),
    StreamCase("keep-alive comment", ": keep-alive\n\n", []),
    StreamCase("comment between fields", "data: a\n: note\ndata: b\n\n", [event("a\nb")]),
    StreamCase("bare colon is a comment", ":\ndata: a\n\n", [event("a")]),
    StreamCase("CRLF line ends", "data: a\r\ndata: b\r\n\r\n", [event("a\nb")]),
    StreamCase("CR line ends", "data: a\rdata: b\r\r", [event("a\nb")]),
    StreamCase("mixed line ends", "data: a\r\ndata: b\rdata: c\n\r\n", [event("a\nb\nc")]),
    StreamCase("CR CR is a line and a blank line", "data: a\r\rdata: b\n\n", [event("a"), event("b")]),
    StreamCase("LF CR is two line ends", "data: a\n\rdata: b\n\n", [event("a"), event("b")]),
    StreamCase("field without colon: data", "data\n\n", [event("")]),
    StreamCase("two data lines without colon", "data\ndata\n\n", [event("\n")]),
    StreamCase("empty data value", "data:\n\n", [event("")]),
    StreamCase("empty data then text", "data:\ndata: x\n\n", [event("\nx")]),
    StreamCase("one leading space is stripped", "data:  two\n\n", [event(" two")]),
    StreamCase("no space after the colon", "data:tight\n\n", [event("tight")]),
    StreamCase("trailing space is kept", "data: a \n\n", [event("a ")]),
    StreamCase("colons in the value are kept", "data: a:b: c\n\n", [event("a:b: c")]),
    StreamCase("tab is not stripped", "data:\tx\n\n", [event("\tx")]),
    StreamCase("event type keeps trailing space", "event: x \ndata: d\n\n", [event("d", type: "x ")]),
    StreamCase("field names are case-sensitive", "Data: a\n\nEVENT: b\ndata: c\n\n", [event("c")]),
    StreamCase("unknown field is ignored", "foo: bar\ndata: a\n\n", [event("a")]),
    StreamCase("field with space before colon is unknown", "data : a\n\n", []),
    StreamCase("line of spaces is not blank", " \ndata: a\n\n", [event("a")]),
    StreamCase("no blank line, no event", "data: a\n", []),
    StreamCase("unterminated last line is dropped", "data: a\n\ndata: b", [event("a")]),
    StreamCase("blank lines alone dispatch nothing", "\n\n\r\n\r", []),
    StreamCase("repeated blank lines", "\n\ndata: a\n\n\n\ndata: b\n\n", [event("a"), event("b")]),
    StreamCase("leading byte order mark is ignored", "\u{FEFF}data: a\n\n", [event("a")]),
    StreamCase("byte order mark later is part of the field", "data: a\n\n\u{FEFF}data: b\n\n", [event("a")]),
    StreamCase("UTF-8 data", "data: Grüße, 日本語 🎉\n\n", [event("Grüße, 日本語 🎉")]),
    StreamCase("JSON data", "event: message\ndata: {\"a\": [1, 2]}\n\n", [event("{\"a\": [1, 2]}")]),
    StreamCase(
        "an inbox stream",
        ": keep-alive\n\nid: 41\nevent: message\ndata: {\"messageId\":\"x\"}\n\n"
            + ": keep-alive\n\nid: 42\nevent: answered\ndata: {\"messageId\":\"x\"}\n\n",
        [event("{\"messageId\":\"x\"}", id: "41"), event("{\"messageId\":\"x\"}", type: "answered", id: "42")],
        lastEventId: "42"),
]

@Suite struct ServerSentEventParserTests {
    @Test("the whole stream at once", arguments: streamCases)
    func wholeStream(_ testCase: StreamCase) {
        var parser = ServerSentEventParser()
        let events = parser.parse(testCase.stream)
        #expect(events == testCase.events)
        #expect(parser.lastEventId == testCase.lastEventId)
        #expect(parser.reconnectionTime == testCase.reconnectionTime)
    }

    @Test("split in two at every byte", arguments: streamCases)
    func splitInTwo(_ testCase: StreamCase) {
        for split in 0...testCase.stream.count {
            var parser = ServerSentEventParser()
            let events = parser.parse(testCase.stream[..<split]) + parser.parse(testCase.stream[split...])
            #expect(events == testCase.events, "split at \(split)")
            #expect(parser.lastEventId == testCase.lastEventId, "split at \(split)")
            #expect(parser.reconnectionTime == testCase.reconnectionTime, "split at \(split)")
        }
    }

    @Test("split in three at every pair of bytes", arguments: streamCases)
    func splitInThree(_ testCase: StreamCase) {
        let stream = testCase.stream
        for first in 0...stream.count {
            for second in first...stream.count {
                var parser = ServerSentEventParser()
                var events = parser.parse(stream[..<first])
                events += parser.parse(stream[first..<second])
                events += parser.parse(stream[second...])
                #expect(events == testCase.events, "split at \(first) and \(second)")
            }
        }
    }

    @Test("one byte at a time", arguments: streamCases)
    func byteByByte(_ testCase: StreamCase) {
        var parser = ServerSentEventParser()
        var events: [ServerSentEvent] = []
        for byte in testCase.stream { events += parser.parse([byte]) }
        #expect(events == testCase.events)
        #expect(parser.lastEventId == testCase.lastEventId)
    }

    @Test func eventsArriveAsSoonAsTheirBlankLineDoes() {
        var parser = ServerSentEventParser()
        #expect(parser.parse(Array("data: a\n".utf8)).isEmpty)
        #expect(parser.parse(Array("\n".utf8)) == [event("a")])
        #expect(parser.parse(Array("data: b\r".utf8)).isEmpty)
        #expect(parser.parse(Array("\r".utf8)) == [event("b")])
    }

    @Test func finishDiscardsThePendingEventButKeepsTheLastId() {
        var parser = ServerSentEventParser()
        _ = parser.parse(Array("id: 1\ndata: a\n\nid: 2\ndata: half".utf8))
        parser.finish()
        #expect(parser.lastEventId == "1")
        // A new connection's bytes start a fresh event: nothing of "half" leaks into it.
        #expect(parser.parse(Array("data: b\n\n".utf8)) == [event("b", id: "1")])
    }

    @Test func aCRAtTheEndOfOneConnectionDoesNotEatTheNextLF() {
        var parser = ServerSentEventParser()
        _ = parser.parse(Array("data: a\r".utf8))
        parser.finish()
        #expect(parser.parse(Array("\ndata: b\n\n".utf8)) == [event("b")])
    }

    @Test func resumingCarriesThePreviousId() {
        var parser = ServerSentEventParser(lastEventId: "41")
        #expect(parser.lastEventId == "41")
        #expect(parser.parse(Array("data: a\n\n".utf8)) == [event("a", id: "41")])
        #expect(parser.parse(Array("id: 42\ndata: b\n\n".utf8)) == [event("b", id: "42")])
    }

    @Test func invalidUTF8IsReplacedNotFatal() {
        var parser = ServerSentEventParser()
        let events = parser.parse([UInt8]("data: a".utf8) + [0xFF] + [UInt8]("b\n\n".utf8))
        #expect(events == [event("a\u{FFFD}b")])
    }

    @Test func aLargeEventInManyChunks() {
        let payload = String(repeating: "0123456789", count: 10_000)
        let stream = Array("id: 9\ndata: \(payload)\n\n".utf8)
        var parser = ServerSentEventParser()
        var events: [ServerSentEvent] = []
        var offset = 0
        while offset < stream.count {
            let end = min(offset + 1_000, stream.count)
            events += parser.parse(stream[offset..<end])
            offset = end
        }
        #expect(events == [event(payload, id: "9")])
    }
}
