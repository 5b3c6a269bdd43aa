import EventLogTesting
import Foundation
import Testing

/// `muster devices trace-logging`: seed 004's "allow/disallow trace message logging" for one device, on a data
/// directory and on a server as the logged-in user.
@Suite struct TraceLoggingCLITests {
    @Test func aDevicesTraceLoggingIsShownSetAndRecordedOnADataDirectory() async throws {
        let work = try TemporaryDirectory("trace-cli")
        defer { work.remove() }
        let data = ["--data", work.url.appendingPathComponent("data").path]
        #expect(try await MusterProcess.run(["users", "add", "joe"] + data).status == 0)
        let verb = ["devices", "trace-logging", "--user", "joe", "--device-id", "phone"]

        let shown = try await MusterProcess.run(verb + data)
        #expect(shown.status == 0, "\(shown)")
        #expect(
            shown.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                == #"{"device":null,"deviceId":"phone","effective":false,"namespace":false}"#, "\(shown)")
        let on = try await MusterProcess.run(verb + ["on"] + data)
        #expect(on.status == 0, "\(on)")
        #expect(try on.json()["effective"] as? Bool == true, "\(on)")
        let namespaceOn = try await MusterProcess.run(["settings", "set", "traceLogging", "true"] + data)
        #expect(namespaceOn.status == 0, "\(namespaceOn)")
        let off = try await MusterProcess.run(verb + ["off"] + data)
        #expect(try off.json()["effective"] as? Bool == false, "the device's own choice wins: \(off)")
        let back = try await MusterProcess.run(verb + ["namespace"] + data)
        #expect(try back.json()["effective"] as? Bool == true, "following the namespace again: \(back)")

        let audit = try await MusterProcess.run(["audit", "--user", "joe", "--json"] + data)
        #expect(audit.status == 0, "\(audit)")
        let details = try audit.jsonLines()
            .filter { $0["what"] as? String == "deviceTraceLoggingSet" }.compactMap { $0["detail"] as? String }
        #expect(
            details == [
                "joe's device phone turned trace logging on", "joe's device phone turned trace logging off",
                "joe's device phone left trace logging to the namespace's traceLogging setting",
            ], "\(audit)")
    }

    @Test func aWrongChoiceOrAMissingUserIsRefusedAndNothingIsRecorded() async throws {
        let work = try TemporaryDirectory("trace-cli-bad")
        defer { work.remove() }
        let data = ["--data", work.url.appendingPathComponent("data").path]
        #expect(try await MusterProcess.run(["users", "add", "joe"] + data).status == 0)
        let before = try await MusterProcess.run(["status", "--json"] + data)
        let maybe = try await MusterProcess.run(
            ["devices", "trace-logging", "--user", "joe", "--device-id", "phone", "maybe"] + data)
        #expect(maybe.status == 2, "\(maybe)")
        #expect(maybe.stderr.contains("'on', 'off' or 'namespace'"), "\(maybe)")
        let noUser = try await MusterProcess.run(["devices", "trace-logging", "--device-id", "phone", "on"] + data)
        #expect(noUser.status == 2, "\(noUser)")
        #expect(noUser.stderr.contains("--user"), "\(noUser)")
        let after = try await MusterProcess.run(["status", "--json"] + data)
        #expect(try after.json()["head"] as? Int == before.json()["head"] as? Int, "\(before)\n\(after)")
    }

    @Test func overHTTPTheLoggedInUserSetsTheirOwnDevice() async throws {
        let server = try await ServerProcess()
        let work = try TemporaryDirectory("trace-remote")
        defer { work.remove() }
        let ada = Terminal(work.url.appendingPathComponent("ada/session.json"))
        try await ada.login(server.base, "ada", password: "secret-ada")
        let on = try await ada.run(["devices", "trace-logging", "--device-id", "phone", "on"])
        #expect(on.status == 0, "\(on)")
        #expect(try on.json()["device"] as? Bool == true, "\(on)")
        let local = try await ada.run(
            ["devices", "trace-logging", "--user", "ada", "--device-id", "phone"] + server.data)
        #expect(try local.json()["device"] as? Bool == true, "the data directory has what the server recorded")
        let someoneElse = try await ada.run(["devices", "trace-logging", "--user", "joe", "--device-id", "phone"])
        #expect(someoneElse.status == 2, "\(someoneElse)")
        #expect(someoneElse.stderr.contains("--user joe"), "\(someoneElse)")
        #expect(await server.stop() == 0)
    }
}
