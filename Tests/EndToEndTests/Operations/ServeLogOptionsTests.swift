import EventLogTesting
import Foundation
import Testing

/// `muster serve --log-format text|json --log-level LEVEL`.
@Suite struct ServeLogOptionsTests {
    @Test(arguments: [
        (["--log-format", "xml"], ["--log-format", "text", "json"]),
        (
            ["--log-level", "loud"],
            ["--log-level", "trace", "debug", "info", "notice", "warning", "error", "critical"]
        ),
    ])
    func aValueOutsideTheChoicesIsBadUsageNamingTheOptionAndTheChoices(
        arguments: [String], named: [String]
    ) async throws {
        let directory = try TemporaryDirectory("log-options")
        defer { directory.remove() }
        let outcome = try await MusterProcess.run(["serve", "--port", "0", "--data", directory.url.path] + arguments)
        #expect(outcome.status == 2, "\(outcome)")
        for word in named { #expect(outcome.stderr.contains(word), "\(word): \(outcome.stderr)") }
        #expect(outcome.stderr.contains(arguments[1]), "the value given: \(outcome.stderr)")
    }

    @Test func theLevelLeavesOutWhatIsLessSevere() async throws {
        let quiet = try await ServerProcess(extraArguments: ["--log-level", "warning"])
        let loud = try await ServerProcess(extraArguments: ["--log-level", "info"])
        for server in [quiet, loud] {
            #expect(try await server.send("GET", "api/v1/inbox").status == 401)
        }
        #expect(await loud.stop() == 0)
        #expect(await quiet.stop() == 0)
        #expect(loud.running.stderr.contains("refused: this route needs a bearer token"), "\(loud.running.stderr)")
        #expect(
            !quiet.running.stderr.contains("refused"), "an info line at --log-level warning: \(quiet.running.stderr)")
    }

    @Test func textIsTheDefaultAndJSONIsOneObjectPerLine() async throws {
        let text = try await ServerProcess()
        let json = try await ServerProcess(extraArguments: ["--log-format", "json"])
        for server in [text, json] {
            #expect(try await server.send("GET", "api/v1/inbox").status == 401)
        }
        #expect(await text.stop() == 0)
        #expect(await json.stop() == 0)
        let textLine = try #require(text.running.stderr.split(separator: "\n").first { $0.contains("refused") })
        #expect(!textLine.hasPrefix("{") && textLine.contains("code=unauthenticated"), "\(textLine)")
        let jsonLine = try #require(json.running.stderr.split(separator: "\n").first { $0.contains("refused") })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(jsonLine.utf8)) as? [String: Any])
        #expect(object["level"] as? String == "info")
        #expect(object["label"] as? String == "muster")
        let metadata = try #require(object["metadata"] as? [String: Any])
        #expect(metadata["code"] as? String == "unauthenticated")
        #expect(metadata["hb.request.id"] is String)
    }
}
