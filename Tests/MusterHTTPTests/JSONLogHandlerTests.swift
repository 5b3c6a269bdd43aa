import Foundation
import Logging
import MusterHTTP
import Synchronization
import Testing

/// `muster serve --log-format json`: one JSON object per line, whatever the message and metadata hold.
@Suite struct JSONLogHandlerTests {
    /// The lines a handler wrote.
    final class Lines: Sendable {
        let written = Mutex<[String]>([])
        var objects: [[String: Any]] {
            written.withLock { $0 }.compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
            }
        }
    }

    static func logger(level: Logger.Level = .info, into lines: Lines) -> Logger {
        var logger = Logger(label: "muster.test") { label in
            JSONLogHandler(label: label) { line in lines.written.withLock { $0.append(line) } }
        }
        logger.logLevel = level
        return logger
    }

    @Test func aLineIsOneObjectWithTimeLevelLabelMessageAndMetadata() throws {
        let lines = Lines()
        var logger = Self.logger(into: lines)
        logger[metadataKey: "hb.request.id"] = "r-17"
        logger.notice(
            "refused: \"quoted\"\nsecond line\u{1}",
            metadata: ["status": "401", "path": .array(["a", .dictionary(["b": "c"])])])
        let written = lines.written.withLock { $0 }
        try #require(written.count == 1)
        #expect(written[0].hasSuffix("}\n"))
        #expect(written[0].dropLast().firstIndex(of: "\n") == nil, "the message's newline is escaped")
        let object = try #require(lines.objects.first)
        #expect(object["level"] as? String == "notice")
        #expect(object["label"] as? String == "muster.test")
        #expect(object["message"] as? String == "refused: \"quoted\"\nsecond line\u{1}")
        let time = try #require(object["time"] as? String)
        #expect(time.hasSuffix("Z") && time.contains("."), "UTC with milliseconds: \(time)")
        let recent = try Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(time)
        #expect(abs(recent.timeIntervalSinceNow) < 300)
        let metadata = try #require(object["metadata"] as? [String: Any])
        #expect(metadata["hb.request.id"] as? String == "r-17")
        #expect(metadata["status"] as? String == "401")
        let path = try #require(metadata["path"] as? [Any])
        #expect(path.first as? String == "a")
        #expect((path.last as? [String: String]) == ["b": "c"])
    }

    @Test func theLevelFiltersAndEmptyMetadataIsLeftOut() throws {
        let lines = Lines()
        let logger = Self.logger(level: .warning, into: lines)
        logger.info("not written")
        logger.error("written")
        let objects = lines.objects
        #expect(objects.count == 1)
        #expect(objects.first?["message"] as? String == "written")
        #expect(objects.first?["level"] as? String == "error")
        #expect(objects.first?["metadata"] == nil)
    }

    @Test func theCallsMetadataWinsOverTheLoggers() throws {
        let lines = Lines()
        var logger = Self.logger(into: lines)
        logger[metadataKey: "user"] = "ada"
        logger.info("x", metadata: ["user": "joe"])
        let metadata = try #require(lines.objects.first?["metadata"] as? [String: Any])
        #expect(metadata["user"] as? String == "joe")
    }
}
