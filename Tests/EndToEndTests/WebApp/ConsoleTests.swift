import Foundation
import Testing

extension WebAppBrowserTests {
    /// The operator's console in a real browser: composing and sending a form and seeing the answer arrive, the areas
    /// on a map, and the pages on people, the audit, settings, push delivery and geotriggers.
    @Suite(.serialized) struct ConsoleTests {
        @Test func adaComposesAFormSendsItToJoeAndSeesHisAnswerArriveLive() async throws {
            try await WebAppStage.withConsole("console-send") { stage in
                let driver = stage.driver
                try await stage.logIn("ada", password: "secret-ada")
                try await stage.show("#/console/send", waitingFor: "#payload")
                try await driver.click(try await driver.find("button[data-field-type='inputString']"))
                try await driver.click(try await driver.find("button[data-field-type='droplist']"))
                try await stage.wait(for: "Your answer", in: "#preview")
                let payload = try await driver.run("return JSON.parse(document.querySelector('#payload').value)")
                let fields = try #require((payload as? [String: Any])?["fields"] as? [[String: Any]])
                #expect(fields.map { $0["id"] as? String } == ["inputString1", "droplist1"])
                #expect(fields.last?["values"] as? [String] == ["Red", "Green", "Blue"])

                try await driver.type("joe", into: try await driver.find("#send-to"))
                try await driver.type("Roll call", into: try await driver.find("#send-title"))
                try await driver.type("Are you there?", into: try await driver.find("#send-body"))
                try await driver.click(try await driver.find("#send-form"))
                try await stage.wait(forElement: "#send-outcome p.ok[data-message-ids]")
                let messageId = try #require(
                    try await driver.run("return document.querySelector('#send-outcome p.ok').dataset.messageIds")
                        as? String)
                #expect(try await driver.text(of: try await driver.find("#send-outcome")).contains("joe"))

                let joe = try await stage.server.login("joe", password: "secret-joe")
                let inbox = try await stage.server.send("GET", "api/v1/inbox", token: joe)
                let item = try #require(inbox.array.first { $0["messageId"] as? String == messageId })
                #expect(item["title"] as? String == "Roll call")

                let answered = try await stage.server.run(
                    [
                        "respond", messageId, "--user", "joe", "--device-id", "joe-cli", "--device-name",
                        "Joe's terminal",
                        #"{"inputString1":"Present","droplist1":"Green"}"#,
                    ] + stage.server.data)
                try #require(answered.status == 0, "\(answered)")
                try await stage.wait(for: "Present", in: "#responses li.response[data-username='joe']")
                let response = try await driver.text(of: try await driver.find("#responses li.response"))
                #expect(response.contains("Green") && response.contains("Joe's terminal"), "\(response)")
                try await stage.browser.screenshot("console-send")

                // Sent again, by mistake: withdrawn, asked first, from joe, who has not answered it.
                try await driver.click(try await driver.find("#send-form"))
                try await driver.wait(
                    for: "the second send",
                    until:
                        "const p = document.querySelector('#send-outcome p.ok'); return p !== null && p.dataset.messageIds !== arguments[0]",
                    [messageId])
                let second = try #require(
                    try await driver.run("return document.querySelector('#send-outcome p.ok').dataset.messageIds")
                        as? String)
                let standing =
                    try await driver.run(
                        "return document.querySelector('#send-standing').getAttribute('href')") as? String
                #expect(standing?.hasPrefix("#/console/sends?send=") == true, "\(standing ?? "no link")")
                try await driver.click(try await driver.find("#withdraw-sent"))
                try await stage.wait(for: "unless its recipient has answered it already", in: "#send-outcome")
                try await stage.browser.screenshot("console-withdrawal")
                try await driver.click(try await driver.find("#confirm-withdrawal"))
                try await stage.wait(for: "Withdrawn: 1. Answered already, so kept: 0.", in: "#withdrawn")
                let left = try await stage.server.send("GET", "api/v1/inbox", token: joe)
                #expect(!left.text.contains(second), "\(left.text)")
            }
        }

        @Test func thePayloadErrorsOfTheServerAreShownAndANamedPayloadIsSaved() async throws {
            try await WebAppStage.withConsole("console-errors") { stage in
                let driver = stage.driver
                try await stage.logIn("ada", password: "secret-ada")
                try await stage.show("#/console/send", waitingFor: "#payload")
                let payload = try await driver.find("#payload")
                try await driver.clear(payload)
                try await driver.type(
                    #"{"responseTopic":"/roll","fields":[{"type":"droplist","id":"colour","values":["Red"],"default":"Pink"}]}"#,
                    into: payload)
                try await driver.type("joe", into: try await driver.find("#send-to"))
                try await driver.type("Colours", into: try await driver.find("#send-title"))
                try await driver.click(try await driver.find("#send-form"))
                try await stage.wait(for: "Pink", in: "#send-outcome .console-error li[data-field]")
                #expect(
                    try await driver.run("return document.querySelector('#send-outcome p.ok') === null") as? Bool
                        == true)

                try await driver.clear(payload)
                try await driver.type(#"{"responseTopic":"/roll","fields":[]}"#, into: payload)
                try await driver.type("roll-call", into: try await driver.find("#payload-name"))
                try await driver.click(try await driver.find("#save-payload"))
                try await stage.wait(for: "roll-call", in: "#send-outcome p.ok")
                let ada = try await stage.server.login("ada", password: "secret-ada")
                let saved = try await stage.server.send("GET", "api/v1/payloads/roll-call", token: ada)
                #expect(saved.status == 200)
                #expect(saved.object["responseTopic"] as? String == "/roll")

                try await driver.click(try await driver.find("#remove-payload"))
                try await stage.wait(for: "The payload roll-call is removed", in: "#send-outcome p.ok")
                #expect(try await stage.server.send("GET", "api/v1/payloads/roll-call", token: ada).status == 404)
            }
        }

        static let beacons = #"""
            {"u_beacons":[{"id":"7","name":"Front desk","proximity_uid":"566C5595-6EC7-4F08-909F-C954BDCA6CD3",
            "major":"1","minor":"","rules_actions":[{"id":"70","rule":{"trigger":"on_entry","min_events":"-1",
            "latch_time":"2"},"action":{"notify_user":"Welcome","notify_server":"","open_url":"","open_pbk":""}}],
            "timezone":{"zone":"Europe/Paris"}}]}
            """#

        @Test func theAreasPageListsTheAreasAndDrawsTheGeofencesWithoutTiles() async throws {
            try await WebAppStage.withConsole("console-areas") { stage in
                let driver = stage.driver
                let directory = stage.server.directory.url
                for (name, text) in [
                    ("u_geofences.json", AreasEndToEndTests.seedGeofences), ("u_beacons.json", Self.beacons),
                ] {
                    let file = directory.appendingPathComponent(name)
                    try Data(text.utf8).write(to: file)
                    let imported = try await stage.server.run(["areas", "import", file.path] + stage.server.data)
                    try #require(imported.status == 0, "\(imported)")
                }
                try await stage.logIn("ada", password: "secret-ada")
                try await stage.show(
                    "#/console/areas", waitingFor: "article.area-card[data-area='35'][data-kind='geofence']")
                #expect(!(try await driver.findAll("article.area-card[data-area='52'][data-kind='geofence']")).isEmpty)
                let beacon = try await driver.text(
                    of: try await driver.find("article.area-card[data-area='7'][data-kind='beacon']"))
                #expect(beacon.contains("Front desk") && beacon.contains("566C5595"), "\(beacon)")
                let shop = try await driver.text(of: try await driver.find("article.area-card[data-area='35']"))
                #expect(shop.contains("radius 20 m"), "0.02 km is 20 m: \(shop)")
                #expect(shop.contains("mon 09:00–19:00") && shop.contains("sun closed"), "\(shop)")
                let rule = try await driver.text(
                    of: try await driver.find("article.area-card[data-area='35'] tr[data-rule='32']"))
                #expect(rule.contains("on_entry") && rule.contains("Venez découvrir nos offres"), "\(rule)")

                // Two geofences: a circle and a centre marker each, drawn although no tiles load.
                try await driver.wait(
                    for: "the geofences' circles and markers",
                    until: """
                        return document.querySelectorAll('#areas-map path.area-circle').length === 2
                            && document.querySelectorAll('#areas-map path.area-marker').length === 2
                        """)
                #expect(
                    try await driver.run("return document.querySelectorAll('#areas-map .leaflet-tile').length") as? Int
                        == 0,
                    "tiles are switched off")
                #expect(!(try await driver.findAll("#areas-map.no-tiles")).isEmpty)
                let widths = try await driver.run(
                    """
                    return [...document.querySelectorAll('#areas-map path.area-circle')]
                        .map((p) => p.getBoundingClientRect().width)
                    """)
                let largest = (widths as? [Any] ?? []).compactMap { ($0 as? NSNumber)?.doubleValue }.max() ?? 0
                #expect(largest > 10, "the 100 m geofence is drawn at its size: \(String(describing: widths))")
                try await stage.browser.screenshot("console-areas")
            }
        }

        /// Tiles are credited once one has drawn: a map whose tiles never load credits no one.
        @Test(arguments: [true, false]) func theMapCreditsItsTilesOnceOneHasDrawn(tilesLoad: Bool) async throws {
            // The server's own icon stands in for a tile; nothing listens on port 9 of the loopback.
            let tiles = tilesLoad ? "/icon.svg?{z}-{x}-{y}" : "http://127.0.0.1:9/{z}/{x}/{y}.png"
            let arguments = ["--no-push", "--map-tiles", tiles, "--map-attribution", "Tiles of the test"]
            try await WebAppStage.withConsole("console-map-tiles", serveArguments: arguments) { stage in
                let driver = stage.driver
                try await stage.logIn("ada", password: "secret-ada")
                try await stage.show("#/console/areas", waitingFor: "#areas-map img.leaflet-tile")
                if tilesLoad {
                    try await stage.wait(for: "Tiles of the test", in: "#areas-map .leaflet-control-attribution")
                    #expect(try await Self.count("#areas-map.no-tiles", driver) == 0)
                } else {
                    try await driver.wait(
                        for: "every tile to fail",
                        until:
                            "return [...document.querySelectorAll('#areas-map img.leaflet-tile')].every((i) => i.complete)"
                    )
                    #expect(try await Self.count("#areas-map .leaflet-control-attribution", driver) == 0)
                    #expect(try await Self.count("#areas-map.no-tiles", driver) == 1)
                }
            }
        }

        /// How many elements match `selector` now (`findAll` waits for one to appear).
        static func count(_ selector: String, _ driver: WebDriver) async throws -> Int? {
            try await driver.run("return document.querySelectorAll(arguments[0]).length", [selector]) as? Int
        }

        @Test func anAreaNameWithHTMLInItIsShownAsTextOnTheMap() async throws {
            try await WebAppStage.withConsole("console-area-name") { stage in
                let driver = stage.driver
                let ada = try await stage.server.login("ada", password: "secret-ada")
                let name = #"Shop <img src="/api/v1/x"><a href="https://evil.example/">click</a>"#
                let area = try JSONSerialization.data(
                    withJSONObject: ["id": "g1", "name": name, "lat": 33.81, "lng": -117.91, "radius": 0.2]
                        as [String: Any])
                let put = try await stage.server.send(
                    "PUT", "api/v1/geofences/g1", token: ada, json: String(decoding: area, as: UTF8.self))
                try #require(put.status == 200 || put.status == 201, "\(put.text)")
                try await stage.logIn("ada", password: "secret-ada")
                try await stage.show("#/console/areas", waitingFor: "#areas-map path.area-marker")
                // The pointer on the area's marker opens its tooltip.
                let marker = try await driver.find("#areas-map path.area-marker")
                try await driver.command(
                    "POST", "actions",
                    [
                        "actions": [
                            [
                                "type": "pointer", "id": "mouse", "parameters": ["pointerType": "mouse"],
                                "actions": [
                                    [
                                        "type": "pointerMove", "origin": [WebDriver.elementKey: marker.id], "x": 0,
                                        "y": 0,
                                    ]
                                ],
                            ]
                        ]
                    ])
                try await stage.wait(forElement: "#areas-map .leaflet-tooltip")
                let shown =
                    try await driver.run(
                        """
                        const tip = document.querySelector('#areas-map .leaflet-tooltip');
                        return { text: tip.textContent, elements: tip.querySelectorAll('img, a').length };
                        """) as? [String: Any]
                #expect(shown?["text"] as? String == "\(name) (g1)", "the name as typed: \(String(describing: shown))")
                #expect(shown?["elements"] as? Int == 0, "no image or link made from the name")
                let card = try await driver.text(of: try await driver.find("article.area-card[data-area='g1'] h3"))
                #expect(card.contains(name), "\(card)")
                try await stage.browser.screenshot("console-area-name")
            }
        }

        @Test func theSendsPageSaysWhoAnsweredAndWithdrawsTheMessagesNotAnsweredYet() async throws {
            try await WebAppStage.withConsole("console-sends") { stage in
                let driver = stage.driver
                let server = stage.server
                let ann = try await server.run(
                    ["users", "add", "ann", "--password-stdin"] + server.data, stdin: "secret-ann\n")
                try #require(ann.status == 0, "\(ann)")
                let sent = try await server.run(
                    [
                        "send", "--to", "joe,ann,ada", "--title", "Roll call", "--body", "In?",
                        #"{"responseTopic":"/roll","fields":[]}"#,
                    ] + server.data)
                try #require(sent.status == 0, "\(sent)")
                let ids = try #require(try sent.json()["messageIds"] as? [String])
                let sendId = try #require(try sent.json()["sendId"] as? String)
                let answered = try await server.run(
                    ["respond", ids[0], "--user", "joe", "--device-id", "phone", "{}"] + server.data)
                try #require(answered.status == 0, "\(answered)")

                try await stage.logIn("ada", password: "secret-ada")
                let row = "tr[data-send-id='\(sendId)']"
                try await stage.show("#/console/sends", waitingFor: row)
                #expect(
                    try await driver.run("return document.querySelector('nav.console-nav [aria-current]').hash")
                        as? String == "#/console/sends", "only this page is the current one")
                #expect(try await Self.count("nav.console-nav [aria-current]", driver) == 1)
                let cells =
                    try await driver.run(
                        "return [...document.querySelectorAll(arguments[0] + ' td')].map((c) => c.textContent)", [row])
                    as? [String] ?? []
                #expect(Array(cells.dropFirst()) == ["Roll call", "cli", "3", "1", "0", "2"], "\(cells)")
                try await driver.click(try await driver.find("\(row) a"))
                try await stage.wait(forElement: "tr[data-user='joe'][data-state='answered']")
                #expect(try await Self.count("tr[data-user='ann'][data-state='pending']", driver) == 1)
                try await stage.wait(for: "3 people: 1 answered, 0 withdrawn, 2 not answered yet", in: "#send-detail")
                try await stage.browser.screenshot("console-sends")

                try await driver.click(try await driver.find("#withdraw-pending"))
                try await driver.click(try await driver.find("#confirm-withdraw-pending"))
                try await stage.wait(forElement: "tr[data-user='ann'][data-state='withdrawn']")
                #expect(try await Self.count("tr[data-user='ada'][data-state='withdrawn']", driver) == 1)
                #expect(try await Self.count("tr[data-user='joe'][data-state='answered']", driver) == 1, "answers stay")
                let shown = try await server.run(["sends", "show", sendId, "--json"] + server.data)
                #expect(try shown.json()["withdrawn"] as? Int == 2 && shown.json()["pending"] as? Int == 0)
                #expect(
                    try await driver.run("return document.querySelector('#withdraw-pending') === null") as? Bool
                        == true, "nothing left to withdraw")
                // What the send page links to after a send: the list, with that send open.
                try await stage.show("#/console/send", waitingFor: "#payload")
                try await stage.show("#/console/sends?send=\(sendId)", waitingFor: "tr[data-user='ann']")
                try await stage.wait(for: "1 answered, 2 withdrawn, 0 not answered yet", in: "#send-detail")
            }
        }

        @Test func aLargeSendIsReadAPageAtATimeAndFilteredByState() async throws {
            try await WebAppStage.withConsole("console-sends-pages") { stage in
                let driver = stage.driver
                let server = stage.server
                // 26 people and 26 sends: one page more than 25 rows of each.
                let people = ["joe", "ada"] + (1...24).map { String(format: "p%02d", $0) }
                for name in people.dropFirst(2) {
                    let added = try await server.run(["users", "add", name] + server.data)
                    try #require(added.status == 0, "\(added)")
                }
                let ada = try await server.login("ada", password: "secret-ada")
                var sendIds: [String] = []
                for index in 1...26 {
                    let to = index == 26 ? people : ["joe"]
                    let recipients = to.map { "\"\($0)\"" }.joined(separator: ",")
                    let payload = #"{"responseTopic":"/roll","fields":[]}"#
                    let sent = try await server.send(
                        "POST", "api/v1/notifications", token: ada,
                        json: #"{"to":[\#(recipients)],"title":"Send \#(index)","body":"","payload":\#(payload)}"#)
                    try #require(sent.status == 201, "\(sent.text)")
                    sendIds.append(try #require(sent.object["sendId"] as? String))
                }

                try await stage.logIn("ada", password: "secret-ada")
                try await stage.show("#/console/sends", waitingFor: "tr[data-send-id='\(sendIds[25])']")
                try await driver.click(try await driver.find("#sends-page-size option[value='25']"))
                try await stage.wait(forElement: "#sends-older")
                #expect(try await Self.count("table.sends tbody tr", driver) == 25)
                #expect(
                    try await Self.count("tr[data-send-id='\(sendIds[0])']", driver) == 0, "the oldest is a page on")
                try await driver.click(try await driver.find("#sends-older"))
                try await stage.wait(forElement: "tr[data-send-id='\(sendIds[0])']")
                #expect(try await Self.count("table.sends tbody tr", driver) == 26)
                #expect(try await Self.count("#sends-older", driver) == 0, "no sends older than the first")

                // The large send: 25 recipients, then the 26th; then only the pending ones.
                try await driver.click(try await driver.find("tr[data-send-id='\(sendIds[25])'] a"))
                try await stage.wait(forElement: "table.send-messages tr[data-user='p23']")
                #expect(try await Self.count("table.send-messages tbody tr", driver) == 25)
                try await driver.click(try await driver.find("#send-more"))
                try await stage.wait(forElement: "table.send-messages tr[data-user='p24']")
                #expect(try await Self.count("table.send-messages tbody tr", driver) == 26)
                #expect(
                    try await driver.run("return document.querySelector('#send-more').hidden") as? Bool == true,
                    "no page after the last")
                try await stage.browser.screenshot("console-sends-pages")
                // The rest withdrawn at once; the filter then shows the withdrawn ones, a page of 25 and more.
                try await driver.click(try await driver.find("#withdraw-pending"))
                try await driver.click(try await driver.find("#confirm-withdraw-pending"))
                try await stage.wait(for: "0 answered, 26 withdrawn, 0 not answered yet", in: "#send-detail")
                try await driver.click(try await driver.find("#send-state option[value='pending']"))
                try await stage.wait(forElement: "table.send-messages:not(:has(tbody tr))")
                try await driver.click(try await driver.find("#send-state option[value='withdrawn']"))
                try await stage.wait(forElement: "table.send-messages tr[data-user='joe'][data-state='withdrawn']")
                #expect(try await Self.count("table.send-messages tbody tr", driver) == 25)
                let shown = try await server.run(["sends", "show", sendIds[25], "--json"] + server.data)
                #expect(try shown.json()["withdrawn"] as? Int == 26 && shown.json()["pending"] as? Int == 0)
            }
        }

        @Test func aGeotriggersMonitorIsStoppedAndStartedFromItsRow() async throws {
            try await WebAppStage.withConsole("console-geotrigger-monitor") { stage in
                let driver = stage.driver
                let ada = try await stage.server.login("ada", password: "secret-ada")
                let definition = #"""
                    {"name":"Lobby","rule":"enter","messageExpression":"\"Welcome\"",
                     "fences":{"type":"FeatureCollection","features":[{"type":"Feature","id":"lobby",
                       "geometry":{"type":"Point","coordinates":[2.33,48.87]},"properties":{"radius":20}}]}}
                    """#
                let put = try await stage.server.send("PUT", "api/v1/geotriggers/lobby", token: ada, json: definition)
                try #require(put.status == 201, "\(put.text)")
                func monitor() async throws -> String? {
                    let answer = try await stage.server.send("GET", "api/v1/geotriggers/lobby", token: ada)
                    return answer.object["monitor"] as? String
                }
                try await stage.logIn("ada", password: "secret-ada")
                let row = "tr[data-geotrigger='lobby']"
                try await stage.show("#/console/geotriggers", waitingFor: "\(row) [data-monitor='running']")
                try await driver.click(try await driver.find("\(row) button[data-turn='stop']"))
                try await stage.wait(forElement: "\(row) [data-monitor='stopped']")
                #expect(try await monitor() == "stopped")
                try await stage.wait(for: "nobody is notified", in: row)
                try await driver.click(try await driver.find("\(row) button[data-turn='start']"))
                try await stage.wait(forElement: "\(row) [data-monitor='running']")
                #expect(try await monitor() == "running")
            }
        }

        @Test func anAdministratorSetsAPasswordAnewAndTheirOwnWithTheCurrentOne() async throws {
            try await WebAppStage.withConsole("console-password") { stage in
                let driver = stage.driver
                let joe = try await stage.server.login("joe", password: "secret-joe")
                try await stage.logIn("ada", password: "secret-ada")
                try await stage.show("#/console/people", waitingFor: "button[data-password-of='joe']")

                // joe's, without anything of ada's: his session ends, the new password logs in.
                try await driver.click(try await driver.find("button[data-password-of='joe']"))
                try await stage.wait(forElement: "#password #new-password")
                #expect(try await Self.count("#password #current-password", driver) == 0)
                try await driver.type("set-by-the-console", into: try await driver.find("#new-password"))
                try await driver.click(try await driver.find("#password button[type='submit']"))
                try await stage.wait(for: "The password of joe is set.", in: "#password .changed")
                #expect(try await stage.server.send("GET", "api/v1/auth/verify", token: joe).status == 401)
                _ = try await stage.server.login("joe", password: "set-by-the-console")

                // Her own takes the current one; a wrong one is refused and said so, and she stays logged in.
                try await driver.click(try await driver.find("button[data-password-of='ada']"))
                try await stage.wait(forElement: "#password #current-password")
                try await driver.type("not-hers", into: try await driver.find("#current-password"))
                try await driver.type("adas-new-password", into: try await driver.find("#new-password"))
                try await driver.click(try await driver.find("#password button[type='submit']"))
                try await stage.wait(for: "current password is not right", in: "#password")
                try await driver.clear(try await driver.find("#current-password"))
                try await driver.type("secret-ada", into: try await driver.find("#current-password"))
                try await driver.clear(try await driver.find("#new-password"))
                try await driver.type("adas-new-password", into: try await driver.find("#new-password"))
                try await driver.click(try await driver.find("#password button[type='submit']"))
                try await stage.wait(for: "The password of ada is set.", in: "#password .changed")
                try await stage.browser.screenshot("console-password")
                try await stage.show("#/console/settings", waitingFor: "#setting-dailyNotificationLimit")
                _ = try await stage.server.login("ada", password: "adas-new-password")
            }
        }

        @Test func anAdministratorChangesAUsersRoleAndRemovesThemAndAGroupButNotThemselves() async throws {
            try await WebAppStage.withConsole("console-user-removal") { stage in
                let driver = stage.driver
                let joe = try await stage.server.login("joe", password: "secret-joe")
                let ada = try await stage.server.login("ada", password: "secret-ada")
                let ops = try await stage.server.send(
                    "PUT", "api/v1/groups/ops", token: ada, json: #"{"members":["joe"]}"#)
                try #require(ops.status == 200, "\(ops.text)")
                try await stage.logIn("ada", password: "secret-ada")
                try await stage.show("#/console/people", waitingFor: "button[data-remove-user='joe']")
                #expect(try await Self.count("button[data-remove-user='ada']", driver) == 0)
                #expect(try await Self.count("button[data-role-of='ada']", driver) == 0)

                // Made an administrator and a user again, each from his next request on.
                try await driver.click(try await driver.find("button[data-role-of='joe']"))
                try await stage.wait(for: "joe is an administrator now.", in: "p.ok")
                #expect(try await stage.server.send("GET", "api/v1/users", token: joe).status == 200)
                try await driver.click(try await driver.find("button[data-role-of='joe']"))
                try await stage.wait(for: "joe is a user now", in: "p.ok")
                #expect(try await stage.server.send("GET", "api/v1/users", token: joe).status == 403)

                // Asked first; cancelling keeps him.
                try await driver.click(try await driver.find("button[data-remove-user='joe']"))
                try await stage.wait(for: "Remove joe? Their sessions end", in: "#removal")
                try await driver.click(try await driver.find("#removal button.secondary"))
                #expect(try await Self.count("#removal button", driver) == 0)
                #expect(try await stage.server.send("GET", "api/v1/auth/verify", token: joe).status == 200)

                try await driver.click(try await driver.find("button[data-remove-user='joe']"))
                try await driver.click(try await driver.find("button[data-confirm-removal='joe']"))
                try await stage.wait(for: "joe is removed.", in: "p.ok")
                #expect(try await Self.count("tr[data-user='joe']", driver) == 0)
                #expect(try await Self.count("tr[data-user='ada']", driver) == 1)
                #expect(try await stage.server.send("GET", "api/v1/auth/verify", token: joe).status == 401)

                // The group he left, empty now, goes the same way.
                try await driver.click(try await driver.find("button[data-remove-group='ops']"))
                try await stage.wait(for: "Remove the group ops?", in: "#group-removal")
                try await stage.browser.screenshot("console-group-removal")
                try await driver.click(try await driver.find("button[data-confirm-group-removal='ops']"))
                try await stage.wait(for: "The group ops is removed.", in: "p.ok")
                #expect(try await Self.count("tr[data-group='ops']", driver) == 0)
                #expect(try await stage.server.send("GET", "api/v1/groups", token: ada).text == "[]")
            }
        }

        @Test func peopleTheirDevicesTheAuditSettingsPushAndGeotriggers() async throws {
            try await WebAppStage.withConsole("console-pages") { stage in
                let driver = stage.driver
                let joe = try await stage.server.login("joe", password: "secret-joe")
                let registered = try await stage.server.send(
                    "POST", "api/v1/devices", token: joe,
                    json: #"{"deviceId":"joe-phone","deviceName":"Joe's phone","platform":"apns"}"#)
                try #require(registered.status == 201, "\(registered.text)")
                try await stage.logIn("ada", password: "secret-ada")

                try await stage.show("#/console/people", waitingFor: "tr[data-user='joe']")
                #expect(
                    try await driver.run(
                        "return document.querySelector(\"tr[data-user='joe'] td:nth-child(5)\").textContent")
                        as? String == "set")
                try await driver.click(try await driver.find("button[data-devices-of='joe']"))
                try await stage.wait(for: "Joe's phone", in: "#devices tr[data-device-id='joe-phone']")
                // A lost phone: unregistered, nothing more is pushed to it.
                try await driver.click(try await driver.find("button[data-unregister-device='joe-phone']"))
                try await stage.wait(for: "joe-phone of joe is unregistered", in: "#devices p.ok")
                #expect(try await Self.count("#devices tr[data-device-id='joe-phone']", driver) == 0)
                let left = try await stage.server.send("GET", "api/v1/devices", token: joe)
                #expect(left.text == "[]", "\(left.text)")
                // And his session there ended: he is logged out at his next request.
                try await driver.click(try await driver.find("button[data-sessions-of='joe']"))
                let joesSession = try await stage.server.send("GET", "api/v1/sessions", token: joe)
                let sessionId = try #require(joesSession.array.first?["sessionId"] as? String, "\(joesSession.text)")
                try await stage.wait(for: "Where joe is logged in", in: "#user-sessions h2")
                try await stage.browser.screenshot("console-user-sessions")
                try await driver.click(try await driver.find("button[data-end-session='\(sessionId)']"))
                try await stage.wait(for: "The session of joe", in: "#user-sessions p.ok")
                try await stage.wait(for: "joe is not logged in anywhere", in: "#user-sessions")
                #expect(try await stage.server.send("GET", "api/v1/inbox", token: joe).status == 401)

                try await stage.show(
                    "#/console/audit?user=joe", waitingFor: "#audit li.entry[data-what='deviceUnregistered']")
                try await stage.wait(
                    for: "by the administrator ada", in: "#audit li.entry[data-what='deviceUnregistered']")
                #expect(try await driver.run("return document.querySelector('#audit-user').value") as? String == "joe")

                try await stage.show("#/console/settings", waitingFor: "#setting-dailyNotificationLimit")
                let marker =
                    "return document.querySelector('tr[data-setting=\"dailyNotificationLimit\"] label .notice').textContent"
                #expect(try await driver.run(marker) as? String == " (default)")
                let sizeMarker =
                    "return document.querySelector('tr[data-setting=\"pushSizeLimit\"] label .notice').textContent"
                #expect(try await driver.run(sizeMarker) as? String == " (default)")
                let limit = try await driver.find("#setting-dailyNotificationLimit")
                try await driver.clear(limit)
                try await driver.type("5", into: limit)
                try await driver.click(try await driver.find("button[data-setting='dailyNotificationLimit']"))
                try await stage.wait(for: "dailyNotificationLimit is now 5", in: "#settings-outcome")
                // Set, it shows what its default is beside it.
                #expect(try await driver.run(marker) as? String == " (default: unset)")
                let ada = try await stage.server.login("ada", password: "secret-ada")
                let settings = try await stage.server.send("GET", "api/v1/settings", token: ada).array
                #expect(settings.first { $0["key"] as? String == "dailyNotificationLimit" }?["value"] as? String == "5")
                // Cleared, the value is unset on the server, which is not its default: the page says what it has.
                try await driver.clear(limit)
                try await driver.click(try await driver.find("button[data-setting='dailyNotificationLimit']"))
                try await stage.wait(for: "dailyNotificationLimit is now unset", in: "#settings-outcome")
                #expect(try await driver.run(marker) as? String == " (default: unset)", "not marked as the default")
                // Back to the default: marked so again, and the server lists it as default.
                try await driver.click(try await driver.find("button[data-reset='dailyNotificationLimit']"))
                try await stage.wait(for: "dailyNotificationLimit is now default", in: "#settings-outcome")
                #expect(try await driver.run(marker) as? String == " (default)", "marked as the default")
                let resetButton =
                    "return document.querySelector('button[data-reset=\"dailyNotificationLimit\"]').hidden"
                #expect(try await driver.run(resetButton) as? Bool == true, "nothing more to reset")
                let after = try await stage.server.send("GET", "api/v1/settings", token: ada).array
                #expect(after.first { $0["key"] as? String == "dailyNotificationLimit" }?["isDefault"] as? Bool == true)

                try await stage.show("#/console/push", waitingFor: "#deliveries p, #deliveries table")
                #expect(try await driver.text(of: try await driver.find("main")).contains("No push sources"))
                try await stage.show("#/console/geotriggers", waitingFor: "main .console-body")
                try await stage.wait(for: "No geotriggers", in: "main .console-body")
                try await stage.browser.screenshot("console-pages")

                // At 360 px nothing is wider than the screen: the pages wrap, wide tables scroll in place.
                try await driver.command("POST", "window/rect", ["width": 360, "height": 800])
                for (hash, selector) in [("#/console/send", "#payload"), ("#/console/people", "tr[data-user='joe']")] {
                    try await stage.show(hash, waitingFor: selector)
                    try await driver.wait(
                        for: "\(hash) to fit 360 px",
                        until: """
                            const root = document.documentElement;
                            return root.clientWidth <= 360 && root.scrollWidth <= root.clientWidth
                            """)
                }
                try await stage.browser.screenshot("console-narrow")
            }
        }
    }
}
