import EventLogTesting
import Foundation
import Testing

/// Names and topics the command line checks before storing them, `verify` on the push sources' secrets, and JSON
/// where `--json` asks for it.
@Suite struct CLIChecksTests {
    @Test func aNewNamespaceFollowsTheRulesOfNewNames() async throws {
        let work = try TemporaryDirectory("namespace-names")
        defer { work.remove() }
        let data = ["--data", work.url.appendingPathComponent("data").path]
        for namespace in ["..", " north ", "no\u{200B}rth", "a/b", "caf\u{E9}".decomposedStringWithCanonicalMapping] {
            let refused = try await MusterProcess.run(["users", "add", "joe", "--namespace", namespace] + data)
            #expect(refused.status == 2, "\(String(reflecting: namespace)): \(refused)")
            #expect(refused.stderr.hasPrefix("muster: namespace "), "\(refused)")
        }
        #expect(!FileManager.default.fileExists(atPath: work.url.appendingPathComponent("data").path))
        let north = try await MusterProcess.run(["users", "add", "joe", "--namespace", "north"] + data)
        #expect(north.status == 0, "\(north)")
    }

    @Test(arguments: ["1000", "512", "2097152", "many"])
    func aPasswordCostThatIsNoPowerOfTwoFrom1024To1048576IsRefusedBeforeAnything(rounds: String) async throws {
        let work = try TemporaryDirectory("password-rounds")
        defer { work.remove() }
        let data = work.url.appendingPathComponent("data")
        var environment = ProcessInfo.processInfo.environment
        environment["MUSTER_PASSWORD_ROUNDS"] = rounds
        let refused = try await MusterProcess.run(
            ["users", "add", "joe", "--password-stdin", "--data", data.path], stdin: "a long secret\n",
            environment: environment)
        #expect(refused.status == 2, "\(refused)")
        #expect(
            refused.stderr
                == "muster: MUSTER_PASSWORD_ROUNDS=\(rounds): expected a power of two from 1024 to 1048576 (scrypt N)\n",
            "\(refused)")
        #expect(!FileManager.default.fileExists(atPath: data.path))
    }

    @Test func aResponseTopicWithAnMQTTWildcardIsRefused() async throws {
        let work = try TemporaryDirectory("wildcard-topic")
        defer { work.remove() }
        let data = ["--data", work.url.appendingPathComponent("data").path]
        let joe = try await MusterProcess.run(["users", "add", "joe"] + data)
        try #require(joe.status == 0, "\(joe)")
        for topic in ["/alerts/#", "/alerts/+/x"] {
            let sent = try await MusterProcess.run(
                ["send", "--to", "joe", "--title", "T", "--body", "B", #"{"responseTopic":"\#(topic)","fields":[]}"#]
                    + data)
            #expect(sent.status == 2, "\(topic): \(sent)")
            #expect(sent.stderr.contains("[bad-topic]"), "\(topic): \(sent)")
        }
        let inbox = try await MusterProcess.run(["inbox", "joe", "--json"] + data)
        #expect(inbox.stdout == "[]\n", "\(inbox)")
    }

    @Test func verifyFindsAPushSourcesMissingSecret() async throws {
        let work = try TemporaryDirectory("verify-secrets")
        defer { work.remove() }
        let directory = work.url.appendingPathComponent("data")
        let data = ["--data", directory.path]
        let added = try await MusterProcess.run(
            ["push-sources", "add", "webpush", "wp", "--subject", "mailto:ops@example.org"] + data)
        try #require(added.status == 0, "\(added)")
        let healthy = try await MusterProcess.run(["verify"] + data)
        #expect(healthy.status == 0, "\(healthy)")

        let secrets = directory.appendingPathComponent("secrets")
        for name in try FileManager.default.contentsOfDirectory(atPath: secrets.path) {
            try FileManager.default.removeItem(at: secrets.appendingPathComponent(name))
        }
        let verify = try await MusterProcess.run(["verify", "--json"] + data)
        #expect(verify.status == 1, "\(verify)")
        let problems = try #require(try verify.json()["problems"] as? [[String: Any]], "\(verify)")
        #expect(problems.count == 1, "\(verify)")
        #expect(problems.first?["area"] as? String == "secrets")
        let message = problems.first?["message"] as? String ?? ""
        #expect(message.hasPrefix(#"the secret of push source "wp" of namespace default"#), "\(message)")
        #expect(message.contains("is missing from \(secrets.path)"), "\(message)")
    }

    @Test func documentsGetWithJSONDescribesTheFileItWrote() async throws {
        let work = try TemporaryDirectory("documents-get-json")
        defer { work.remove() }
        let data = ["--data", work.url.appendingPathComponent("data").path]
        let png = work.url.appendingPathComponent("p.png")
        let bytes = MediaSamples.file("png")
        try Data(bytes).write(to: png)
        let put = try await MusterProcess.run(["documents", "put", png.path] + data)
        let name = try #require(try put.json()["name"] as? String, "\(put)")

        let toStdout = try await MusterProcess.run(["documents", "get", name, "--json"] + data)
        #expect(toStdout.status == 2, "\(toStdout)")
        #expect(toStdout.stdout.isEmpty)
        #expect(toStdout.stderr.hasPrefix("muster: --json describes the file written with --output FILE"))
        let copy = work.url.appendingPathComponent("out.png")
        let toFile = try await MusterProcess.run(["documents", "get", name, "-o", copy.path, "--json"] + data)
        #expect(toFile.status == 0, "\(toFile)")
        let written = try toFile.json()
        #expect(written["name"] as? String == name)
        #expect(written["size"] as? Int == bytes.count)
        #expect(written["output"] as? String == copy.path)
        #expect(try Data(contentsOf: copy) == Data(bytes))
    }
}
