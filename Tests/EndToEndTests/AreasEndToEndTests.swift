import EventLogTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Areas and rules through the real server: the seed's areas imported by the CLI while it runs,
/// locations posted over HTTP, notifications in the inbox, decisions explained by the audit.
@Suite struct AreasEndToEndTests {
    /// The seed's two Paris geofences (radius in km), as `u_geofences.json` serves them.
    static let seedGeofences = #"""
        {"u_geofences":[{"id":52,"lat":48.86821546,"lng":2.3231598,"name":"DEMO PRESENTATION 2","radius":0.1,
        "start":"2013-07-30T00:00:00Z","end":"2013-08-30T00:00:00Z","rules_actions":[{"id":60,"rule":{"trigger":"on_entry",
        "min_events":"-1"},"action":{"open_pbk":"","open_url":"","notify_user":"Offres exclusives","notify_server":""}}],
        "timezone":{"zone":"Europe/Paris","offset":3600,"utc_offset":1,"dst":"false"}},
        {"id":35,"lat":48.87621805,"lng":2.32686415,"name":"demo-shop-2","radius":0.02,"start":"2013-07-10T00:00:00Z",
        "end":"2014-08-09T00:00:00Z","rules_actions":[{"id":33,"rule":{"trigger":"on_exit","min_events":"1"},
        "action":{"open_pbk":"","open_url":"","notify_user":"Reposez vous bien!","notify_server":""}},
        {"id":32,"rule":{"trigger":"on_entry","min_events":"1"},"action":{"open_pbk":"",
        "open_url":"http://mobile.ubudu.com/webcoupon/117-demo?udid={udid}","notify_user":"Venez découvrir nos offres !",
        "notify_server":""}}],"timezone":{"zone":"Europe/Paris","title":"Europe/Paris","offset":3600,"utc_offset":1,
        "dst":"false"},"schedule":{"week":{"sun":{"close":0,"open":0},"mon":{"close":68400,"open":32400},
        "tue":{"close":68400,"open":32400},"wed":{"close":68400,"open":32400},"thu":{"close":68400,"open":32400},
        "fri":{"close":68400,"open":32400},"sat":{"close":68400,"open":32400}},"specific_days":{},"breaks":{}}}]}
        """#

    @Test func theSeedsAreasDecideAndTheAuditExplains() async throws {
        let server = try await ServerProcess()
        let file = server.directory.url.appendingPathComponent("u_geofences.json")
        try Data(Self.seedGeofences.utf8).write(to: file)
        let imported = try await MusterProcess.run(["areas", "import", file.path] + server.data)
        #expect(imported.status == 0, "\(imported)")
        #expect(imported.stdout.contains("2 areas defined"))

        let ada = try await server.login("ada", password: "secret-ada")
        let created = try await server.send(
            "POST", "api/v1/users", token: ada, json: #"{"username":"joe","password":"secret-joe"}"#)
        #expect(created.status == 201)
        let joe = try await server.login("joe", password: "secret-joe")

        // Monday 25 November 2013, 10:00 in Paris: in the shop (20 m), then 100 m away.
        let entered = try await server.send(
            "POST", "api/v1/locations", token: joe,
            json:
                #"{"deviceId":"joe-phone","lat":48.87621805,"lng":2.32686415,"accuracy":5,"at":"2013-11-25T10:00:00+01:00"}"#
        )
        #expect(entered.status == 200, "\(entered.text)")
        #expect(entered.object["transitions"] as? [[String: String]] == [["area": "35", "trigger": "on_entry"]])
        let left = try await server.send(
            "POST", "api/v1/locations", token: joe,
            json:
                #"{"deviceId":"joe-phone","lat":48.8771,"lng":2.32686415,"accuracy":5,"at":"2013-11-25T10:20:00+01:00"}"#
        )
        #expect(left.object["transitions"] as? [[String: String]] == [["area": "35", "trigger": "on_exit"]])
        // Sunday: the shop is closed, the entry is recorded, the rule does not fire.
        let sunday = try await server.send(
            "POST", "api/v1/locations", token: joe,
            json: #"{"deviceId":"joe-phone","lat":48.87621805,"lng":2.32686415,"at":"2013-11-24T11:00:00+01:00"}"#)
        let closed = try #require((sunday.object["outcomes"] as? [[String: Any]])?.first)
        #expect(closed["fired"] as? Bool == false)
        #expect((closed["reason"] as? String)?.contains("outside opening hours") == true)

        let inbox = try await server.send("GET", "api/v1/inbox", token: joe)
        #expect(inbox.array.map { $0["body"] as? String } == ["Venez découvrir nos offres !", "Reposez vous bien!"])

        let audit = try await MusterProcess.run(["audit", "--area", "35", "--json"] + server.data)
        let entries = audit.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let decisions = entries.filter { $0["what"] as? String == "ruleEvaluated" }
        #expect(decisions.map { $0["rule"] as? String } == ["32", "33", "32"])
        #expect(decisions.map { $0["fired"] as? Bool } == [true, true, false])
        #expect(await server.stop() == 0)
    }

    @Test func aLatchedRuleFiresAfterARestart() async throws {
        let server = try await ServerProcess()
        let ada = try await server.login("ada", password: "secret-ada")
        let put = try await server.send(
            "PUT", "api/v1/geofences/door", token: ada,
            json: #"""
                {"lat":48.87,"lng":2.33,"radius":0.05,"rules_actions":[{"id":"hello","rule":{"trigger":"on_entry",
                 "latch_time":2},"action":{"notify_user":"Still here after 2 s"}}]}
                """#)
        #expect(put.status == 201, "\(put.text)")
        let located = try await server.send(
            "POST", "api/v1/locations", token: ada, json: #"{"deviceId":"ada-phone","lat":48.87,"lng":2.33}"#)
        let waiting = try #require((located.object["outcomes"] as? [[String: Any]])?.first)
        #expect((waiting["reason"] as? String)?.hasPrefix("waiting for the latch time (2 s") == true)
        try await server.restart()
        let token = try await server.login("ada", password: "secret-ada")
        // The timer re-armed from the log fires the rule; wait (bounded) for the message to arrive.
        var bodies: [String] = []
        let deadline = Date().addingTimeInterval(20)
        while bodies.isEmpty, Date() < deadline {
            bodies = try await server.send("GET", "api/v1/inbox", token: token).array.compactMap {
                $0["body"] as? String
            }
            if bodies.isEmpty { try await Task.sleep(for: .milliseconds(200)) }
        }
        #expect(bodies == ["Still here after 2 s"])
        #expect(await server.stop() == 0)
    }

    @Test func theReportVerbsActOnAServerAsTheLoggedInUser() async throws {
        let server = try await ServerProcess()
        let work = try TemporaryDirectory("areas-remote")
        defer { work.remove() }
        var environment = ProcessInfo.processInfo.environment
        environment["MUSTER_DATA"] = nil
        environment["MUSTER_SESSION"] = work.url.appendingPathComponent("session.json").path
        let ada = try await server.login("ada", password: "secret-ada")
        let put = try await server.send(
            "PUT", "api/v1/geofences/door", token: ada,
            json:
                #"{"lat":48.87,"lng":2.33,"radius":0.05,"rules_actions":[{"id":"hi","rule":{"trigger":"on_entry"},"action":{"notify_user":"Hello"}}]}"#
        )
        #expect(put.status == 201)
        let login = try await server.run(
            ["login", "--server", server.base.absoluteString, "ada", "--password-stdin"], stdin: "secret-ada\n",
            environment: environment)
        try #require(login.status == 0, "\(login)")
        let located = try await server.run(
            ["location", "--user", "ada", "--device-id", "ada-phone", "--lat", "48.87", "--lng", "2.33", "--json"],
            environment: environment)
        #expect(located.status == 0, "\(located)")
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(located.stdout.utf8)) as? [String: Any])
        #expect(answer["transitions"] as? [[String: String]] == [["area": "door", "trigger": "on_entry"]])
        let left = try await server.run(
            ["transition", "--user", "ada", "--device-id", "ada-phone", "--area", "door", "--trigger", "on_exit"],
            environment: environment)
        #expect(left.status == 0, "\(left)")
        #expect(left.stdout.contains("door  on_exit"))
        let counters = try await server.run(["counters", "--json"], environment: environment)
        #expect(counters.stdout.contains(#""count":1"#), "\(counters)")
        // The areas as the server lists them: the table and the JSON its data directory gives.
        for format in [[], ["--json"]] {
            let remote = try await server.run(["areas", "list"] + format, environment: environment)
            let local = try await MusterProcess.run(["areas", "list"] + format + server.data)
            #expect(remote.status == 0 && local.status == 0, "\(remote)\n\(local)")
            #expect(remote.stdout == local.stdout && remote.stdout.contains("door"), "\(remote)\n\(local)")
        }
        let quota = try await server.run(["quota", "ada"], environment: environment)
        #expect(quota.status == 0, "\(quota)")
        #expect(quota.stdout.contains("unlimited"))
        let someoneElse = try await server.run(
            ["location", "--user", "joe", "--device-id", "p", "--lat", "48.87", "--lng", "2.33"],
            environment: environment)
        #expect(someoneElse.status == 2)
        #expect(someoneElse.stderr.contains("--user joe"))
        let sighting = try await server.run(
            [
                "beacon", "--user", "ada", "--device-id", "ada-phone", "--uuid", "nope", "--major", "1", "--minor", "1",
                "--rssi", "-60",
            ],
            environment: environment)
        #expect(sighting.status == 2)
        #expect(sighting.stderr.contains("uuid"))
        #expect(await server.stop() == 0)
    }

    @Test func areasImportedOnAServerAreDefinedAllOrNoneAsOnADataDirectory() async throws {
        let server = try await ServerProcess()
        let work = try TemporaryDirectory("areas-import-remote")
        defer { work.remove() }
        let ada = Terminal(work.url.appendingPathComponent("ada/session.json"))
        try await ada.login(server.base, "ada", password: "secret-ada")
        let file = work.url.appendingPathComponent("areas.json")
        func areas(minEvents: Int, beacon: String = "F2A74FC4-7625-44DB-9B08-CB7E130B2029") -> String {
            #"{"u_geofences":[{"id":"door","lat":48.87,"lng":2.33,"radius":0.05,"timezone":{"zone":"Europe/Paris"},"#
                + #""rules_actions":[{"id":"hi","rule":{"trigger":"on_entry","min_events":\#(minEvents)},"#
                + #""action":{"notify_user":"Hello"}}]},{"id":"yard","lat":48.88,"lng":2.34,"radius":0.1}],"#
                + #""u_beacons":[{"id":"desk","proximity_uid":"\#(beacon)","major":1,"minor":2}]}"#
        }
        // The same documents, one after the other, on the server and on a data directory of its own.
        let local = ["--data", work.url.appendingPathComponent("local").path]
        for (document, format) in [
            (areas(minEvents: 1), []), (areas(minEvents: 1), []), (areas(minEvents: 2), ["--json"]),
        ] {
            try Data(document.utf8).write(to: file)
            let remote = try await ada.run(["areas", "import", file.path] + format)
            let here = try await MusterProcess.run(["areas", "import", file.path] + format + local)
            #expect(remote.status == 0 && here.status == 0, "\(remote)\n\(here)")
            #expect(remote.stdout == here.stdout && remote.stderr == here.stderr, "\(remote)\n\(here)")
        }
        let first = try await ada.run(["areas", "list"])
        #expect(first.lines.count == 4, "\(first)")
        let again = try await ada.run(["areas", "import", file.path])
        #expect(again.stdout == "0 areas defined, 3 unchanged\n", "\(again)")
        let changed = try await MusterProcess.run(["events", "--type", "AreaCountsChanged", "--json"] + server.data)
        #expect(changed.lines.count == 1, "\(changed)")

        // A bad area stores none of them.
        let head = try await MusterProcess.run(["events", "--json"] + server.data).lines.count
        try Data(areas(minEvents: 3, beacon: "not-a-uuid").utf8).write(to: file)
        let refused = try await ada.run(["areas", "import", file.path])
        #expect(refused.status == 2 && refused.stderr.contains("proximity_uid"), "\(refused)")
        #expect(try await MusterProcess.run(["events", "--json"] + server.data).lines.count == head)

        // Administrators only.
        let added = try await ada.run(["users", "add", "joe", "--password-stdin"], stdin: "secret-joe\n")
        #expect(added.status == 0, "\(added)")
        let joe = Terminal(work.url.appendingPathComponent("joe/session.json"))
        try await joe.login(server.base, "joe", password: "secret-joe")
        try Data(areas(minEvents: 1).utf8).write(to: file)
        let notAdmin = try await joe.run(["areas", "import", file.path])
        #expect(notAdmin.status != 0 && notAdmin.stderr.contains("administrator"), "\(notAdmin)")
        #expect(await server.stop() == 0)
    }

    @Test func oneUsersReportsDoNotMoveAnotherUsersDevice() async throws {
        let server = try await ServerProcess()
        let ada = try await server.login("ada", password: "secret-ada")
        let put = try await server.send(
            "PUT", "api/v1/geofences/door", token: ada,
            json:
                #"{"lat":48.87,"lng":2.33,"radius":0.05,"rules_actions":[{"id":"hi","rule":{"trigger":"on_entry"},"action":{"notify_user":"Hello"}}]}"#
        )
        #expect(put.status == 201, "\(put.text)")
        for user in ["bob", "cy"] {
            let created = try await server.send(
                "POST", "api/v1/users", token: ada, json: #"{"username":"\#(user)","password":"secret-\#(user)"}"#)
            #expect(created.status == 201, "\(created.text)")
        }
        let bob = try await server.login("bob", password: "secret-bob")
        let cy = try await server.login("cy", password: "secret-cy")
        let registered = try await server.send(
            "POST", "api/v1/devices", token: cy,
            json: #"{"deviceId":"cy-phone","deviceName":"phone","platform":"apns"}"#)
        #expect(registered.status == 201, "\(registered.text)")
        func fix(_ token: String, _ device: String, latitude: Double) async throws -> ServerProcess.Answer {
            try await server.send(
                "POST", "api/v1/locations", token: token,
                json: #"{"deviceId":"\#(device)","lat":\#(latitude),"lng":2.33}"#)
        }
        func transitions(_ answer: ServerProcess.Answer) -> [[String: String]]? {
            answer.object["transitions"] as? [[String: String]]
        }
        for device in ["cy-phone", "shared"] {
            #expect(
                transitions(try await fix(cy, device, latitude: 48.87)) == [["area": "door", "trigger": "on_entry"]])
        }

        // cy's registered device: bob's far fix is refused, nothing recorded.
        let refused = try await fix(bob, "cy-phone", latitude: 48.92)
        #expect(refused.status == 409, "\(refused.text)")
        #expect(refused.errorCode == "conflict")
        #expect(
            refused.text.contains(#"deviceId: device \"cy-phone\" is registered to another user"#), "\(refused.text)")
        // An id nobody registered: bob's far fix is his own and leaves cy where she is.
        let apart = try await fix(bob, "shared", latitude: 48.92)
        #expect(apart.status == 200)
        #expect(transitions(apart) == [])
        for device in ["cy-phone", "shared"] {
            let again = try await fix(cy, device, latitude: 48.87)
            #expect(transitions(again) == [], "\(device): \(again.text)")
            #expect((again.object["outcomes"] as? [Any])?.isEmpty == true)
        }
        let inbox = try await server.send("GET", "api/v1/inbox", token: cy)
        #expect(inbox.array.map { $0["body"] as? String } == ["Hello", "Hello"])

        // The operator naming --user on the data directory is refused the same way (exit 3).
        let byOperator = try await MusterProcess.run(
            ["location", "--user", "bob", "--device-id", "cy-phone", "--lat", "48.92", "--lng", "2.33"] + server.data)
        #expect(byOperator.status == 3, "\(byOperator)")
        #expect(byOperator.stderr.contains(#"deviceId: device "cy-phone" is registered to another user"#))

        // The audit tells whose device entered and why each rule fired.
        let audit = try await MusterProcess.run(["audit", "--area", "door"] + server.data)
        #expect(audit.status == 0, "\(audit)")
        #expect(audit.stdout.contains("cy's device cy-phone entered area door"), "\(audit.stdout)")
        #expect(audit.stdout.contains("cy's device shared entered area door"))
        #expect(!audit.stdout.contains("left area door"), "\(audit.stdout)")
        #expect(audit.stdout.contains("rule hi of area door (on_entry, cy) fired"))
        #expect(await server.stop() == 0)
    }
}
