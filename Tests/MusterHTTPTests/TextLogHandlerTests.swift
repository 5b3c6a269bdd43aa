import Logging
import MusterHTTP
import Synchronization
import Testing

/// `muster serve --log-format text`: the lines swift-log's `StreamLogHandler` writes, to the character but for the
/// time, with the metadata put into words when a line is written.
@Suite struct TextLogHandlerTests {
    final class Lines: TextOutputStream, @unchecked Sendable {
        let written = Mutex<[String]>([])
        func write(_ string: String) { written.withLock { $0.append(string) } }
        /// The lines without their first word, the time.
        var untimed: [String] { written.withLock { $0 }.map { String($0.drop { $0 != " " }) } }
    }

    /// The same logging through each handler; the lines each wrote.
    static func bothWrite(_ label: String, _ log: (inout Logger) -> Void) -> (text: [String], stream: [String]) {
        let text = Lines()
        let stream = Lines()
        var first = Logger(label: label) { TextLogHandler(label: $0) { line in text.write(line) } }
        var second = Logger(label: label) { StreamLogHandler(label: $0, stream: stream, metadataProvider: nil) }
        log(&first)
        log(&second)
        return (text.untimed, stream.untimed)
    }

    struct Refusal: Error, CustomStringConvertible { var description: String { "no such user" } }

    @Test func linesAreWhatStreamLogHandlerWrites() {
        let (text, stream) = Self.bothWrite("muster") { logger in
            logger.info("started")
            logger[metadataKey: "hb.request.id"] = "r-17"
            logger[metadataKey: "a"] = .array(["x", .dictionary(["k": "v"])])
            logger.warning("refused", metadata: ["status": "401", "hb.request.id": "r-18"])
            logger.error("failed", error: Refusal())
            logger.debug("not written at info")
        }
        #expect(text.count == 3)
        #expect(text == stream)
        let (unlabelled, unlabelledStream) = Self.bothWrite("") { $0.notice("plain") }
        #expect(unlabelled == unlabelledStream && unlabelled.count == 1)
    }

    @Test func theTimeIsLocalToTheSecondWithItsOffset() {
        let lines = Lines()
        let logger = Logger(label: "t") { TextLogHandler(label: $0) { line in lines.write(line) } }
        logger.info("x")
        let time = lines.written.withLock { $0 }.first?.split(separator: " ").first.map(String.init) ?? ""
        #expect(time.count == 24, "\(time)")  // 2026-11-27T03:30:00+0000
        #expect(time.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4}/) != nil, "\(time)")
    }
}
