import EventLogTesting
import Foundation
import PushTesting
import Testing

extension WebAppBrowserTests {
    /// The person's side of the web app in a real browser: an answer given offline is kept (across a reload) and sent
    /// once when the connection returns, the Start tab's requests, the Documents tab, and the header on a phone.
    @Suite(.serialized) struct PersonTests {
        /// The `ResponseReceived` events in the log, as the CLI prints them.
        func responses(_ stage: WebAppStage) async throws -> [[String: Any]] {
            let events = try await stage.server.run(
                ["events", "--type", "ResponseReceived", "--json"] + stage.server.data)
            try #require(events.status == 0, "\(events)")
            return try events.jsonLines()
        }

        /// Runs `body` on a fresh stage with joe logged in; a failure leaves a screenshot named `name-failure`.
        /// `serving` adds options to `muster serve`; `pushing`, the server sends its push outbox.
        func withJoe(
            _ name: String, serving options: [String] = [], pushing: Bool = false,
            _ body: (WebAppStage) async throws -> Void
        ) async throws {
            let stage = try await WebAppStage.start(
                serveArguments: (pushing ? [] : ["--no-push"]) + ["--map-tiles", ""] + options)
            do {
                try await stage.logIn("joe", password: "secret-joe")
                try await body(stage)
            } catch {
                try? await stage.browser.screenshot("\(name)-failure")
                await stage.stop()
                throw error
            }
            await stage.stop()
        }

        /// Sends joe a "Roll call" without fields, opens it and answers it with the browser offline; returns the
        /// message's id once the answer is kept. `beforeOpening` runs between the send and the opening.
        func answerARollCallOffline(
            _ stage: WebAppStage, beforeOpening: () async throws -> Void = {}
        ) async throws -> String {
            let driver = stage.driver
            let id = try await stage.send(
                to: "joe", title: "Roll call", payload: #"{"responseTopic":"/roll","fields":[]}"#)
            try await beforeOpening()
            try await driver.click(try await driver.find("li.message[data-message-id=\"\(id)\"] a"))
            let send = try await driver.find("main form button.footer-button")
            try await driver.setOffline(true)
            try await driver.click(send)
            try await driver.wait(
                for: "the answer to be kept",
                until: "return document.querySelector('main .confirmation.queued') !== null")
            return id
        }

        @Test func anAnswerGivenOfflineIsKeptAcrossAReloadAndSentOnceWhenTheConnectionReturns() async throws {
            try await withJoe("person-offline") { stage in
                let driver = stage.driver
                try await driver.command("POST", "goog/cdp/execute", ["cmd": "ServiceWorker.enable", "params": [:]])
                let id = try await answerARollCallOffline(stage) {
                    // The service worker keeps the app's files, so the app opens again offline.
                    try await driver.wait(
                        for: "the service worker to control the page", seconds: 30,
                        until: "return navigator.serviceWorker.controller !== null")
                }
                try await driver.wait(
                    for: "the banner to count one waiting answer",
                    until: "return document.querySelector('#waiting-count')?.dataset.count === '1'")
                #expect(
                    try await driver.run("return document.querySelector('#waiting-count').textContent") as? String
                        == "1 answer waiting to be sent")
                try await driver.wait(
                    for: "the offline banner",
                    until: "const b = document.getElementById('offline-banner'); return b !== null && !b.hidden")
                try await stage.browser.screenshot("person-offline-kept")
                #expect(try await responses(stage).isEmpty, "nothing reached the server")

                // Reloaded while offline: the page's memory is gone, IndexedDB still holds the answer.
                try await driver.open(stage.server.base)
                try await driver.wait(
                    for: "the kept answer counted after the reload", seconds: 30,
                    until: "return document.querySelector('#waiting-count')?.dataset.count === '1'")
                try await driver.wait(
                    for: "the answered message to leave the inbox",
                    until:
                        "return document.querySelector('li.message[data-message-id=\"' + arguments[0] + '\"]') === null"
                        + " && document.querySelector('ul.inbox li.empty') !== null",
                    [id])
                #expect(try await responses(stage).isEmpty, "still nothing reached the server")

                try await driver.setOffline(false)
                try await driver.wait(
                    for: "the outbox to empty", seconds: 30,
                    until: "const b = document.getElementById('offline-banner'); return b !== null && b.hidden")
                let recorded = try await responses(stage)
                #expect(recorded.count == 1, "exactly once: \(recorded)")
                #expect("\(recorded.first ?? [:])".lowercased().contains(id.lowercased()), "the answer to \(id)")
                // A later start of the app sends nothing again.
                try await driver.open(stage.server.base)
                _ = try await driver.find("ul.inbox li.empty")
                #expect(
                    try await driver.run("return document.querySelector('#waiting-count') === null") as? Bool == true)
                #expect(try await responses(stage).count == 1)
                try await stage.browser.screenshot("person-offline-sent")
            }
        }

        @Test func joeChangesHisOwnPasswordFromTheAccountMenuAndStaysLoggedIn() async throws {
            try await withJoe("person-password") { stage in
                let driver = stage.driver
                let other = try await stage.server.login("joe", password: "secret-joe")
                try await driver.click(try await driver.find("header .who summary"))
                try await driver.click(try await driver.find("#change-password"))
                try await driver.type("secret-joe", into: try await driver.find("#current-password"))
                try await driver.type("joes-new-password", into: try await driver.find("#new-password"))
                try await driver.click(try await driver.find("main form button[type='submit']"))
                try await driver.wait(
                    for: "the password to be set",
                    until:
                        "return document.querySelector('main .changed')?.textContent === 'The password of joe is set.'"
                )
                try await stage.browser.screenshot("person-password")
                // His other session ended; this one goes on, and the new password logs in.
                #expect(try await stage.server.send("GET", "api/v1/auth/verify", token: other).status == 401)
                try await driver.run("location.hash = '#/inbox'")
                _ = try await driver.find("ul.inbox")
                _ = try await stage.server.login("joe", password: "joes-new-password")
            }
        }

        @Test func joeEndsHisLostPhonesSessionFromTheAccountMenuAndStaysLoggedInHere() async throws {
            try await withJoe("person-sessions") { stage in
                let driver = stage.driver
                let phone = try await stage.server.send(
                    "POST", "api/v1/auth/token",
                    json: #"{"username":"joe","password":"secret-joe","deviceId":"joe-phone"}"#)
                let lost = try #require(phone.object["accessToken"] as? String, "\(phone.text)")
                try await driver.click(try await driver.find("header .who summary"))
                try await driver.click(try await driver.find("#sessions"))
                _ = try await driver.find("ul.sessions li em.current")
                #expect(try await WebAppBrowserTests.ConsoleTests.count("ul.sessions li", driver) == 2)
                try await stage.browser.screenshot("person-sessions")
                try await driver.click(try await driver.find("ul.sessions li button"))
                try await driver.wait(
                    for: "the phone's session to be gone",
                    until: "return document.querySelectorAll('ul.sessions li').length === 1")
                #expect(try await stage.server.send("GET", "api/v1/auth/verify", token: lost).status == 401)
                #expect(try await WebAppBrowserTests.ConsoleTests.count("ul.sessions li em.current", driver) == 1)
            }
        }

        @Test func joeSetsHisTimeZoneAndPhoneOnHisProfileButNotHisRole() async throws {
            try await withJoe("person-profile") { stage in
                let driver = stage.driver
                try await driver.click(try await driver.find("header .who summary"))
                try await driver.click(try await driver.find("#profile"))
                _ = try await driver.find("#profile-time-zone")
                let zone = "document.querySelector('#profile-time-zone')"
                #expect(try await driver.run("return \(zone).value") as? String == "UTC")
                try await driver.run("\(zone).value = 'Europe/Paris'")
                try await driver.type("+33 1 23 45 67 89", into: try await driver.find("#profile-phone"))
                try await driver.click(try await driver.find("main form button[type='submit']"))
                try await driver.wait(
                    for: "the profile to be saved",
                    until: "return document.querySelector('main .saved')?.textContent === 'Saved.'")
                try await stage.browser.screenshot("person-profile")
                let joe = try await stage.server.login("joe", password: "secret-joe")
                let stored = try await stage.server.send("GET", "api/v1/users/joe", token: joe)
                #expect(stored.object["timeZone"] as? String == "Europe/Paris", "\(stored.text)")
                #expect(stored.object["phone"] as? String == "+33 1 23 45 67 89")
                #expect(stored.object["isAdmin"] as? Bool == false)
                #expect(
                    try await driver.run("return document.querySelector('#profile-is-admin') === null") as? Bool == true
                )
            }
        }

        /// An answer kept offline that the server refuses when it arrives (here: answered meanwhile from another
        /// device) is not dropped unseen: the person is told which one and why, across a reload, until they dismiss it.
        @Test func aKeptAnswerTheServerRefusesIsShownUntilDismissed() async throws {
            try await withJoe("person-refused") { stage in
                let driver = stage.driver
                let id = try await answerARollCallOffline(stage)
                let elsewhere = try await stage.server.run(
                    ["respond", id, "--user", "joe", "--device-id", "joe-laptop", "{}"] + stage.server.data)
                try #require(elsewhere.status == 0, "\(elsewhere)")

                try await driver.setOffline(false)
                try await driver.wait(
                    for: "the refused answer to be shown", seconds: 30,
                    until: "const b = document.getElementById('refused-answers'); return b !== null && !b.hidden")
                let shown = try await driver.run("return document.getElementById('refused-answers').textContent")
                let text = try #require(shown as? String)
                #expect(text.contains("“Roll call”"), "\(text)")
                #expect(text.contains("answered already"), "the server's reason: \(text)")
                #expect(try await responses(stage).count == 1, "only the other device's answer is recorded")
                try await stage.browser.screenshot("person-refused-shown")

                try await driver.open(stage.server.base)
                try await driver.wait(
                    for: "the refusal to be shown again after a reload", seconds: 30,
                    until: "const b = document.getElementById('refused-answers'); return b !== null && !b.hidden")
                try await driver.click(try await driver.find("#refused-answers button.dismiss"))
                try await driver.wait(
                    for: "the refusal to go once dismissed",
                    until: "return document.getElementById('refused-answers').hidden")
                try await driver.open(stage.server.base)
                _ = try await driver.find("ul.inbox")
                #expect(
                    try await driver.run("return document.getElementById('refused-answers').hidden") as? Bool == true)
            }
        }

        /// The app's own `api()` in the page, as the app's modules have it (the same module instance).
        static let importAPI =
            "import(document.querySelector('script[type=module]').src.replace(/js\\/app\\.js$/, 'js/api.js'))"

        @Test func twoTabsFindingTheAccessTokenExpiredAtOnceRefreshItOnceAndStayLoggedIn() async throws {
            try await withJoe("person-two-tabs", serving: ["--access-token-lifetime", "10"]) { stage in
                let driver = stage.driver
                // Pages without a live stream: only the requests below refresh the token.
                try await stage.show("#/documents", waitingFor: "main h1")
                let first = try #require(try await driver.command("GET", "window") as? String)
                let opened = try await driver.command("POST", "window/new", ["type": "tab"]) as? [String: Any]
                let second = try #require(opened?["handle"] as? String)
                try await driver.command("POST", "window", ["handle": second])
                try await driver.open(stage.server.base)
                try await stage.show("#/documents", waitingFor: "main h1")
                // 300 ms on every request in both tabs: the two refreshes overlap, as after a dropped connection.
                let slow: [String: Any] = [
                    "offline": false, "latency": 300, "downloadThroughput": -1, "uploadThroughput": -1,
                ]
                try await stage.devTools("Network.emulateNetworkConditions", slow)
                try await driver.wait(
                    for: "the access token to expire", seconds: 30,
                    until:
                        "return Date.parse(JSON.parse(localStorage.getItem('muster.session')).expiresAt) < Date.now()")
                // The second tab asks when the first one does.
                try await driver.run(
                    """
                    window.outcome = 'waiting';
                    new BroadcastChannel('two-tabs').onmessage = () => \(Self.importAPI)
                      .then(({ api }) => api('GET', '/api/v1/documents'))
                      .then(() => { window.outcome = 'ok'; }, (error) => { window.outcome = error.message; });
                    """)
                try await driver.command("POST", "window", ["handle": first])
                try await stage.devTools("Network.emulateNetworkConditions", slow)
                let here = try await driver.runAsync(
                    """
                    const done = arguments[arguments.length - 1];
                    new BroadcastChannel('two-tabs').postMessage('go');
                    \(Self.importAPI).then(({ api }) => api('GET', '/api/v1/documents'))
                      .then(() => done('ok'), (error) => done(error.message));
                    """)
                #expect(here as? String == "ok", "the first tab's request")
                try await driver.command("POST", "window", ["handle": second])
                try await driver.wait(for: "the second tab's request", until: "return window.outcome !== 'waiting'")
                #expect(try await driver.run("return window.outcome") as? String == "ok", "the second tab's request")
                #expect(try await driver.run("return localStorage.getItem('muster.session') !== null") as? Bool == true)

                let revoked = try await stage.events("TokenRevoked").map { $0["reason"] as? String }
                #expect(revoked == ["refreshRotation"], "one refresh, no refresh token presented twice: \(revoked)")
                let verified = try await driver.runAsync(
                    """
                    const done = arguments[arguments.length - 1];
                    \(Self.importAPI).then(({ api }) => api('GET', '/api/v1/auth/verify'))
                      .then((me) => done(me.username), (error) => done(error.message));
                    """)
                #expect(verified as? String == "joe", "the session holds")
            }
        }

        @Test func aMapMarkersLabelWithHTMLInItIsShownAsTextAndMakesNoElement() async throws {
            try await withJoe("person-marker-label") { stage in
                let driver = stage.driver
                let label = #"Space <img src="/x"><a href="https://evil.example/">Mountain</a>"#
                let field: [String: Any] = [
                    "id": "spot", "type": "map", "label": "Where?",
                    "location": ["longitude": -117.918974, "latitude": 33.812092],
                    "markers": [["label": label, "longitude": -117.917193, "latitude": 33.811379]],
                ]
                let payload = try JSONSerialization.data(
                    withJSONObject: ["responseTopic": "/where", "fields": [field]] as [String: Any])
                let id = try await stage.send(
                    to: "joe", title: "Where", payload: String(decoding: payload, as: UTF8.self))
                try await stage.openMessage(id)
                // Leaflet's permanent tooltip shows the label next to its marker.
                let tooltip = "[data-field-id=\"spot\"] .leaflet-tooltip"
                try await driver.wait(
                    for: "the marker's label", until: "return document.querySelector(arguments[0]) !== null", [tooltip])
                let shown =
                    try await driver.run(
                        """
                        const tip = document.querySelector(arguments[0]);
                        return { text: tip.textContent, elements: tip.querySelectorAll('img, a').length };
                        """, [tooltip]) as? [String: Any]
                #expect(shown?["text"] as? String == label, "the label as typed: \(String(describing: shown))")
                #expect(shown?["elements"] as? Int == 0, "no image or link made from the label")
                try await stage.browser.screenshot("person-marker-label")
            }
        }

        @Test func aMessageOfTheInboxOpensAndIsAnsweredAfterAReloadWithoutAConnection() async throws {
            try await withJoe("person-offline-message") { stage in
                let driver = stage.driver
                try await driver.command("POST", "goog/cdp/execute", ["cmd": "ServiceWorker.enable", "params": [:]])
                let id = try await stage.send(
                    to: "joe", title: "Kept to answer",
                    payload: #"{"responseTopic":"/roll","fields":[{"id":"note","type":"inputString","label":"Note"}]}"#)
                try await driver.wait(
                    for: "the message kept in the browser",
                    until:
                        "return JSON.parse(localStorage.getItem('muster.messages') ?? '{}')[arguments[0]] !== undefined",
                    [id])
                try await driver.wait(
                    for: "the service worker to control the page", seconds: 30,
                    until: "return navigator.serviceWorker.controller !== null")

                try await driver.setOffline(true)
                try await driver.open(stage.server.base)
                try await stage.openMessage(id)
                try await driver.type("answered offline", into: try await stage.field("note"))
                try await driver.click(try await driver.find("main form button.footer-button"))
                _ = try await driver.find("main .confirmation.queued")
                // What the page links at fixed addresses comes from the service worker's cache too.
                let shell = try await driver.runAsync(
                    """
                    const done = arguments[arguments.length - 1];
                    Promise.all(['/manifest.webmanifest', '/icon.svg'].map((path) => fetch(path).then((r) => r.status)))
                      .then(done, (error) => done(String(error)));
                    """)
                #expect(shell as? [Int] == [200, 200], "\(shell)")

                try await driver.setOffline(false)
                try await driver.wait(
                    for: "the kept answer to go out", seconds: 30,
                    until: "const b = document.getElementById('offline-banner'); return b !== null && b.hidden")
                let recorded = try await responses(stage)
                #expect(recorded.count == 1 && "\(recorded)".contains("answered offline"), "\(recorded)")
            }
        }

        @Test func anInboxDrawnWhileTheServerIsDownSaysSoAndGoesLiveWhenItIsBack() async throws {
            try await withJoe("person-inbox-reconnects") { stage in
                let driver = stage.driver
                let message = "li.message[data-message-id=\"%@\"]"
                let first = try await stage.send(
                    to: "joe", title: "Offline one", payload: #"{"responseTopic":"/roll","fields":[]}"#)
                try await stage.openMessage(first)
                _ = await stage.server.stop()
                try await driver.click(try await driver.find("main form button.footer-button"))
                _ = try await driver.find("main .confirmation.queued")
                // The inbox from the copy kept in the browser: it says so, and the answered message is not in it.
                try await stage.show("#/inbox", waitingFor: "#inbox-stale:not([hidden])")
                #expect(try await driver.findAll(String(format: message, first)).isEmpty)

                try await stage.server.startAgain()
                try await driver.wait(
                    for: "the kept answer to go out", seconds: 60,
                    until: "return document.getElementById('offline-banner').hidden")
                #expect(try await responses(stage).count == 1)
                let second = try await stage.send(
                    to: "joe", title: "After reconnect", payload: #"{"responseTopic":"/roll","fields":[]}"#)
                try await driver.wait(
                    for: "the new message in the inbox", seconds: 60,
                    until: "return document.querySelector(arguments[0]) !== null", [String(format: message, second)])
                #expect(try await driver.run("return document.getElementById('inbox-stale').hidden") as? Bool == true)
                #expect(
                    try await driver.findAll(String(format: message, first)).isEmpty,
                    "the message answered offline stays out of the inbox")
                try await stage.browser.screenshot("person-inbox-reconnected")

                // Withdrawn by its sender: it leaves the inbox live.
                let withdrawn = try await stage.server.run(["withdraw", second] + stage.server.data)
                try #require(withdrawn.status == 0, "\(withdrawn)")
                try await driver.wait(
                    for: "the withdrawn message to leave the inbox", seconds: 60,
                    until: "return document.querySelector(arguments[0]) === null", [String(format: message, second)])
            }
        }

        @Test func theStartTabListsARequestMadeWithTheCLIAndAnsweringItRecordsTheResponse() async throws {
            try await withJoe("person-start") { stage in
                let driver = stage.driver
                let fields = #"{"fields":[{"id":"what","type":"inputString","label":"What broke?"}]}"#
                let put = try await stage.server.run(
                    [
                        "requests", "put", "report", "--title", "Report a fault", "--body", "Tell us", "--topic",
                        "/faults/new",
                        fields,
                    ] + stage.server.data)
                try #require(put.status == 0, "\(put)")

                try await driver.click(try await driver.find("header nav a[href=\"#/start\"]"))
                let item = try await driver.find("li.request[data-request=\"report\"]")
                #expect(try await driver.text(of: item).contains("Report a fault"))
                try await stage.browser.screenshot("person-start")
                try await driver.click(try await driver.find("li.request[data-request=\"report\"] a"))
                try await driver.type("pump 3", into: try await driver.find("main form input"))
                try await driver.click(try await driver.find("main form button.footer-button"))
                try await driver.wait(
                    for: "the answer to be sent",
                    until:
                        "const s = document.querySelector('main p.status'); return s !== null && /sent/.test(s.textContent)"
                )
                let recorded = try await responses(stage)
                #expect(recorded.count == 1, "\(recorded)")
                let text = "\(recorded)"
                #expect(text.contains("pump 3") && text.contains("/faults/new"), "\(text)")
                try await stage.browser.screenshot("person-start-sent")
            }
        }

        @Test func aStartAnswerTheServerRefusesIsShownWithoutAnUncaughtError() async throws {
            try await withJoe("person-start-refused") { stage in
                let driver = stage.driver
                func put(_ fields: String) async throws {
                    let put = try await stage.server.run(
                        [
                            "requests", "put", "report", "--title", "Report a fault", "--body", "Tell us", "--topic",
                            "/faults/new", fields,
                        ] + stage.server.data)
                    try #require(put.status == 0, "\(put)")
                }
                try await put(#"{"fields":[{"id":"what","type":"inputString","label":"What broke?"}]}"#)
                try await stage.show("#/start/report", waitingFor: "main form input")
                try await driver.run(
                    """
                    window.uncaught = [];
                    window.addEventListener('unhandledrejection', (event) => uncaught.push(String(event.reason)));
                    window.addEventListener('error', (event) => uncaught.push(event.message));
                    """)
                // The template changes while the person fills it in: the server refuses the answer.
                try await put(
                    #"{"fields":[{"id":"what","type":"inputString","label":"What broke?"},"#
                        + #"{"id":"where","type":"inputString","label":"Where?"}]}"#)
                try await driver.type("pump 3", into: try await driver.find("main form input"))
                try await driver.click(try await driver.find("main form button.footer-button"))
                try await stage.wait(for: "not accepted", in: "main p.status.error")
                #expect(try await driver.run("return window.uncaught") as? [String] == [], "nothing thrown")
                #expect(try await responses(stage).isEmpty)
            }
        }

        /// Stands in for the browser's push service, which headless Chromium cannot reach: `subscribe` gives a
        /// subscription with a real P-256 key and a loopback endpoint (the stage sends no pushes).
        static let fakePushService = """
            const done = arguments[arguments.length - 1];
            (async () => {
              const pair = await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits']);
              const text = (bytes) => btoa(String.fromCharCode(...bytes))
                .replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
              const p256dh = text(new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey)));
              const auth = text(crypto.getRandomValues(new Uint8Array(16)));
              const subscription = { options: {}, unsubscribe: async () => true,
                toJSON: () => ({ endpoint: 'http://127.0.0.1:9/push', keys: { p256dh, auth } }) };
              PushManager.prototype.getSubscription = async () => null;
              PushManager.prototype.subscribe = async () => subscription;
            })().then(() => done(true), (error) => done(String(error)));
            """

        @Test func whenAnswersNeedARegisteredDeviceThePersonIsToldAndTurningOnNotificationsRegistersTheBrowser()
            async throws
        {
            try await withJoe("person-register-device") { stage in
                let driver = stage.driver
                let required = try await stage.server.run(
                    ["settings", "set", "requireRegisteredDevice", "true"] + stage.server.data)
                try #require(required.status == 0, "\(required)")
                let id = try await stage.send(
                    to: "joe", title: "Check in",
                    payload: #"{"responseTopic":"/in","fields":[{"id":"note","type":"inputString","label":"Note"}]}"#)
                try await stage.openMessage(id)
                try await driver.type("here", into: try await stage.field("note"))
                try await driver.click(try await driver.find("main form button.footer-button"))
                // No Web Push source: this browser has no way to register; the person is told what else to do.
                try await stage.wait(for: "Muster app on your phone", in: "main .device-notice")
                var notice = try await driver.text(of: try await driver.find("main .device-notice"))
                #expect(notice.contains("only from registered devices"), "\(notice)")
                #expect(!notice.contains("POST") && !notice.contains("deviceId"), "no developer's words: \(notice)")
                #expect(try await responses(stage).isEmpty)

                let source = try await stage.server.run(
                    ["push-sources", "add", "webpush", "browsers", "--subject", "mailto:ops@example.com"]
                        + stage.server.data)
                try #require(source.status == 0, "\(source)")
                try await stage.devTools(
                    "Browser.grantPermissions",
                    ["origin": stage.server.base.absoluteString, "permissions": ["notifications"]])
                #expect(try await driver.runAsync(Self.fakePushService) as? Bool == true)
                try await driver.click(try await driver.find("main form button.footer-button"))
                try await stage.wait(forElement: "main .device-notice #register-device")
                notice = try await driver.text(of: try await driver.find("main .device-notice"))
                #expect(notice.contains("Turning on notifications registers this browser"), "\(notice)")
                try await stage.browser.screenshot("person-register-device")
                try await driver.click(try await driver.find("#register-device"))
                try await stage.wait(forElement: "main .confirmation.sent")

                let recorded = try await responses(stage)
                #expect(recorded.count == 1, "\(recorded)")
                let browser = try #require(
                    try await driver.run("return localStorage.getItem('muster.device')") as? String)
                let joe = try await stage.server.login("joe", password: "secret-joe")
                let devices = try await stage.server.send("GET", "api/v1/devices", token: joe).array
                #expect(
                    devices.contains { $0["deviceId"] as? String == browser && $0["platform"] as? String == "web" },
                    "\(devices)")
            }
        }

        /// The notifications the app's service worker shows: `[tag, title, body, silent]` each.
        func notifications(_ stage: WebAppStage) async throws -> [[Any]] {
            try await stage.driver.runAsync(
                """
                const done = arguments[arguments.length - 1];
                navigator.serviceWorker.ready.then((registration) => registration.getNotifications())
                  .then((shown) => done(shown.map((n) => [n.tag, n.title, n.body, n.silent])), (e) => done(String(e)));
                """) as? [[Any]] ?? []
        }

        /// Hands a push to the app's service worker as the browser's own push service would, until `shown` holds.
        typealias HandOn = (WebPushReceivedPush, _ until: String, _ shown: () async throws -> Bool) async throws -> Void

        /// joe's browser registered for Web Push at a local push service, which decrypts what the server pushes;
        /// `handOn` gives a push to the app's service worker. Notifications are allowed and the service worker
        /// controls the page.
        func withPushedJoe(_ name: String, _ body: (WebAppStage, WebPushEndpoint, HandOn) async throws -> Void)
            async throws
        {
            try await withJoe(name, pushing: true) { stage in
                let server = stage.server
                let added = try await server.run(
                    ["push-sources", "add", "webpush", "browsers", "--subject", "mailto:ops@example.com"] + server.data)
                try #require(added.status == 0, "\(added)")
                let details = try #require(try added.json()["details"] as? [String: Any])
                let endpoint = try await WebPushEndpoint.start(
                    expectedKey: try #require(details["publicKey"] as? String))
                defer { Task { await endpoint.stop() } }
                let registered = try await server.run(
                    [
                        "devices", "register", "--user", "joe", "--device-id", "laptop", "--device-name", "Chromium",
                        "--platform", "web", "--token", endpoint.subscribe().json,
                    ] + server.data)
                try #require(registered.status == 0, "\(registered)")
                let origin = "http://\(server.base.host ?? "127.0.0.1"):\(server.base.port ?? 80)"
                try await stage.devTools(
                    "Browser.grantPermissions", ["origin": origin, "permissions": ["notifications"]])
                try await stage.devTools("ServiceWorker.enable")
                try await stage.driver.wait(
                    for: "the service worker to control the page", seconds: 30,
                    until: "return navigator.serviceWorker.controller !== null")
                try await body(stage, endpoint) { push, what, shown in
                    // DevTools now and then drops a push without a word (the first registration of a fresh profile
                    // has the id 0): handed on again each second until it shows. A push shown twice is one
                    // notification, its tag being the message's.
                    var checks = 0
                    try await eventually(what) {
                        if checks % 20 == 0 {
                            try await stage.devTools(
                                "ServiceWorker.deliverPushMessage",
                                [
                                    "origin": origin, "registrationId": "0",
                                    "data": String(decoding: push.plaintext, as: UTF8.self),
                                ])
                        }
                        checks += 1
                        return try await shown()
                    }
                }
            }
        }

        /// Sends joe a "Roll call", hands its push on and waits for its notification; the message's id and the
        /// notification as `notifications` gives it.
        func rollCallShown(_ stage: WebAppStage, _ endpoint: WebPushEndpoint, _ handOn: HandOn) async throws
            -> (id: String, shown: [Any])
        {
            let id = try await stage.send(
                to: "joe", title: "Roll call", payload: #"{"responseTopic":"/roll","fields":[]}"#)
            try await eventually("the message's push") { endpoint.receivedCount == 1 }
            try await handOn(endpoint.received[0], "its notification") { try await notifications(stage).count == 1 }
            return (id, try await notifications(stage)[0])
        }

        @Test func aMessagesNotificationIsReplacedQuietlyWhenItsSenderWithdrawsIt() async throws {
            try await withPushedJoe("person-withdrawn-push") { stage, endpoint, handOn in
                let (id, shown) = try await rollCallShown(stage, endpoint, handOn)
                #expect(shown[1] as? String == "Roll call" && shown[2] as? String == "From the CLI", "\(shown)")
                #expect(shown[3] as? Bool == false, "a message's notification is heard")
                #expect((shown[0] as? String)?.lowercased() == id.lowercased(), "tagged with the message's id")
                // Away from the inbox, which would take the notification away itself.
                try await stage.driver.click(try await stage.driver.find("header nav a[href=\"#/documents\"]"))
                try await stage.driver.wait(
                    for: "the Documents tab",
                    until: "return location.hash === '#/documents' && document.querySelector('main h1') !== null")

                let withdrawn = try await stage.server.run(["withdraw", id] + stage.server.data)
                try #require(withdrawn.status == 0, "\(withdrawn)")
                try await eventually("the withdrawal's push") { endpoint.receivedCount == 2 }
                try await handOn(endpoint.received[1], "the notification to say it was withdrawn") {
                    try await notifications(stage).first?[2] as? String
                        == "Withdrawn by its sender: there is nothing to answer."
                }
                let replaced = try await notifications(stage)
                #expect(replaced.count == 1, "in the place of the message's: \(replaced)")
                #expect(replaced[0][0] as? String == shown[0] as? String && replaced[0][1] as? String == "Roll call")
                #expect(replaced[0][3] as? Bool == true, "quiet")
                try await eventually("the withdrawal recorded as delivered") {
                    let listed = try await stage.server.run(
                        ["deliveries", "--message", id, "--json"] + stage.server.data)
                    let rows = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]]
                    return rows?.count == 1 && rows?[0]["kind"] as? String == "withdrawal"
                        && rows?[0]["status"] as? String == "delivered"
                }
                // Seen in the inbox, which no longer has the message, it leaves the screen.
                try await stage.driver.click(try await stage.driver.find("header nav a[href=\"#/inbox\"]"))
                try await eventually("the withdrawal's notification to close") {
                    try await notifications(stage).isEmpty
                }
            }
        }

        @Test func aMessagesNotificationClosesWhenItIsAnsweredElsewhere() async throws {
            try await withPushedJoe("person-answered-push") { stage, endpoint, handOn in
                let (id, _) = try await rollCallShown(stage, endpoint, handOn)
                let answered = try await stage.server.run(
                    ["respond", id, "--user", "joe", "--device-id", "phone", "{}"] + stage.server.data)
                try #require(answered.status == 0, "\(answered)")
                try await eventually("the notification to close as the inbox hears of the answer") {
                    try await notifications(stage).isEmpty
                }
                _ = try await stage.driver.find("ul.inbox li.empty")
            }
        }

        @Test func theDocumentsTabListsAnUploadOpensItAndRemovesIt() async throws {
            try await withJoe("person-documents") { stage in
                let driver = stage.driver
                let work = try TemporaryDirectory("person-documents")
                defer { work.remove() }
                let file = work.url.appendingPathComponent("photo.png")
                try Data(MediaSamples.file("png", size: 3_000)).write(to: file)
                let put = try await stage.server.run(
                    ["documents", "put", file.path, "--user", "joe", "--json"] + stage.server.data)
                try #require(put.status == 0, "\(put)")
                let name = try #require(try put.json()["name"] as? String)

                try await driver.click(try await driver.find("header nav a[href=\"#/documents\"]"))
                let item = try await driver.find("li.document[data-name=\"\(name)\"]")
                #expect(try await driver.text(of: item).contains("2.9 KiB"), "3000 bytes in the server's unit")
                try await driver.click(try await driver.find("li.document[data-name=\"\(name)\"] button.link"))
                try await driver.wait(
                    for: "the document shown from a blob URL",
                    until: "return document.querySelector('.viewer img')?.src.startsWith('blob:') === true")
                let size = try await driver.run("return document.querySelector('.viewer').dataset.bytes")
                #expect(size as? String == "3000")
                try await stage.browser.screenshot("person-documents")

                // Removed, asked first: cancelling keeps it.
                let shown = name.split(separator: "/").last.map(String.init) ?? name
                try await driver.click(try await driver.find("button[data-remove-document=\"\(name)\"]"))
                try await stage.wait(for: "Remove \(shown)? Nobody can open it afterwards", in: "#document-removal")
                try await driver.click(try await driver.find("#document-removal button.secondary"))
                #expect(try await ConsoleTests.count("#document-removal button", driver) == 0)
                #expect(try await ConsoleTests.count("li.document", driver) == 1)
                try await driver.click(try await driver.find("button[data-remove-document=\"\(name)\"]"))
                try await stage.browser.screenshot("person-document-removal")
                try await driver.click(try await driver.find("button[data-confirm-document-removal=\"\(name)\"]"))
                try await stage.wait(for: "\(shown) is removed.", in: "main p.ok")
                #expect(try await ConsoleTests.count("li.document", driver) == 0)
                try await stage.wait(for: "You have not uploaded any documents.", in: "ul.documents")
                #expect(try await ConsoleTests.count(".viewer img", driver) == 0, "the removed one is no longer shown")
                let listed = try await stage.server.run(["documents", "list", "--json"] + stage.server.data)
                #expect(listed.stdout == "[]\n", "\(listed)")
            }
        }

        /// Waits for the login, and returns what it says.
        func loginProblem(_ stage: WebAppStage) async throws -> String {
            _ = try await stage.driver.find("#password")
            return try await stage.driver.run(
                "const p = document.querySelector('form.login p.error'); return p.hidden ? '' : p.textContent")
                as? String ?? ""
        }

        @Test func aTokenTheServerNoLongerKnowsBringsBackTheLoginSayingTheSessionEnded() async throws {
            try await withJoe("person-session-ended") { stage in
                let driver = stage.driver
                try await driver.run(
                    """
                    const kept = JSON.parse(localStorage.getItem('muster.session'));
                    localStorage.setItem('muster.session', JSON.stringify({ ...kept, accessToken: 'mat_unknown' }));
                    """)
                try await driver.click(try await driver.find("header nav a[href=\"#/documents\"]"))
                #expect(try await loginProblem(stage) == "Your session ended: log in again.")
                #expect(try await driver.run("return localStorage.getItem('muster.session')") is NSNull)
                try await stage.browser.screenshot("person-session-ended")

                // Logged in again, the person is back where they were.
                try await driver.type("joe", into: try await driver.find("#username"))
                try await driver.type("secret-joe", into: try await driver.find("#password"))
                try await driver.click(try await driver.find("#log-in"))
                _ = try await driver.find("main ul.documents")
                #expect(try await driver.run("return location.hash") as? String == "#/documents")
            }
        }

        @Test func anAnswerGivenAsTheSessionEndedIsSentOnceThePersonLogsInAgain() async throws {
            try await withJoe("person-answer-after-login") { stage in
                let driver = stage.driver
                let id = try await stage.send(
                    to: "joe", title: "Late answer",
                    payload: #"{"responseTopic":"/roll","fields":[{"id":"note","type":"inputString","label":"Note"}]}"#)
                try await stage.openMessage(id)
                // The session ends on the server (as by a logout elsewhere) while the person types.
                let ended = try await driver.runAsync(
                    """
                    const done = arguments[arguments.length - 1];
                    const token = JSON.parse(localStorage.getItem('muster.session')).accessToken;
                    fetch('/api/v1/auth/logout', { method: 'POST', headers: { Authorization: `Bearer ${token}` } })
                      .then((response) => done(response.status), (error) => done(String(error)));
                    """)
                try #require(ended as? Int == 204, "\(String(describing: ended))")
                try await driver.type("still here", into: try await stage.field("note"))
                try await driver.click(try await driver.find("main form button.footer-button"))
                #expect(try await loginProblem(stage) == "Your session ended: log in again.")
                #expect(try await responses(stage).isEmpty)

                try await driver.type("joe", into: try await driver.find("#username"))
                try await driver.type("secret-joe", into: try await driver.find("#password"))
                try await driver.click(try await driver.find("#log-in"))
                try await driver.wait(
                    for: "the kept answer to go out", seconds: 30,
                    until: "const b = document.getElementById('offline-banner'); return b !== null && b.hidden")
                let recorded = try await responses(stage)
                #expect(recorded.count == 1 && "\(recorded)".contains("still here"), "\(recorded)")
            }
        }

        @Test func aLogoutInAnotherTabBringsBackTheLoginHereAndALoginThereIsFollowed() async throws {
            try await withJoe("person-other-tab") { stage in
                let driver = stage.driver
                let first = try #require(try await driver.command("GET", "window") as? String)
                let opened = try await driver.command("POST", "window/new", ["type": "tab"]) as? [String: Any]
                let second = try #require(opened?["handle"] as? String)
                try await driver.command("POST", "window", ["handle": second])
                try await driver.open(stage.server.base)
                try await driver.click(try await driver.find("header .who summary"))
                try await driver.click(try await driver.find("#log-out"))
                _ = try await driver.find("#password")

                try await driver.command("POST", "window", ["handle": first])
                #expect(try await loginProblem(stage) == "Your session ended: log in again.")
                try await driver.type("joe", into: try await driver.find("#username"))
                try await driver.type("secret-joe", into: try await driver.find("#password"))
                try await driver.click(try await driver.find("#log-in"))
                _ = try await driver.find("ul.inbox")

                try await driver.command("POST", "window", ["handle": second])
                try await stage.wait(forElement: "ul.inbox")
                #expect(try await driver.run("return location.hash") as? String == "#/inbox")
            }
        }

        @Test func loggingOutLeavesNothingOfThePersonInTheBrowser() async throws {
            try await withJoe("person-logout-forgets") { stage in
                let driver = stage.driver
                let id = try await stage.send(
                    to: "joe", title: "Private matter", payload: #"{"responseTopic":"/roll","fields":[]}"#)
                let put = try await stage.server.run(
                    [
                        "requests", "put", "report", "--title", "Report a fault", "--body", "Tell us", "--topic",
                        "/faults/new",
                        #"{"fields":[{"id":"what","type":"inputString","label":"What broke?"}]}"#,
                    ] + stage.server.data)
                try #require(put.status == 0, "\(put)")
                try await stage.wait(forElement: "li.message[data-message-id=\"\(id)\"]")
                try await stage.show("#/start", waitingFor: "li.request[data-request=\"report\"]")
                let keys = "return Object.keys(localStorage).sort()"
                let kept = try await driver.run(keys) as? [String] ?? []
                #expect(kept.contains("muster.inbox") && kept.contains("muster.requests"), "kept for offline: \(kept)")

                try await driver.click(try await driver.find("header .who summary"))
                try await driver.click(try await driver.find("#log-out"))
                _ = try await driver.find("#password")
                let left = try await driver.run(keys) as? [String]
                #expect(left == ["muster.device"], "only this browser's device id is left: \(String(describing: left))")
                let text = try await driver.run("return JSON.stringify({ ...localStorage })") as? String ?? ""
                #expect(!text.contains("Private matter") && !text.contains("Report a fault"), "\(text)")
            }
        }

        @Test func onA360PixelPhoneTheHeaderIsOneRowAndTheAccountMenuLogsOut() async throws {
            try await withJoe("person-phone") { stage in
                let driver = stage.driver
                try await driver.command("POST", "window/rect", ["width": 360, "height": 800])
                try await driver.wait(
                    for: "the page to be 360 px wide",
                    until: "return document.documentElement.clientWidth <= 360")
                // Every part of the header sits on one row: its height is that of its tallest part.
                let rows =
                    try await driver.run(
                        """
                        const bar = document.querySelector('header.bar');
                        const parts = [...bar.children].filter((e) => e.getBoundingClientRect().height > 0);
                        const tallest = Math.max(...parts.map((e) => e.getBoundingClientRect().height));
                        const tops = parts.map((e) => e.getBoundingClientRect().top);
                        return {
                          oneRow: Math.max(...tops) - Math.min(...tops) < tallest,
                          tabsShown: [...bar.querySelectorAll('nav a')].every((a) => {
                            const tab = a.getBoundingClientRect();
                            const nav = a.parentElement.getBoundingClientRect();
                            return tab.left >= nav.left - 0.5 && tab.right <= nav.right + 0.5;
                          }),
                          fits: document.documentElement.scrollWidth <= document.documentElement.clientWidth,
                          tabs: [...bar.querySelectorAll('nav a')].map((a) => [a.getBoundingClientRect().left,
                            a.getBoundingClientRect().right, a.parentElement.getBoundingClientRect().right].join(' ')),
                        };
                        """) as? [String: Any]
                try await stage.browser.screenshot("person-phone")
                #expect(rows?["oneRow"] as? Bool == true, "\(String(describing: rows))")
                #expect(
                    rows?["tabsShown"] as? Bool == true,
                    "the person's three tabs are all in view: \(String(describing: rows))")
                #expect(rows?["fits"] as? Bool == true, "nothing is wider than the phone")

                try await driver.click(try await driver.find("header .who summary"))
                try await driver.click(try await driver.find("#log-out"))
                _ = try await driver.find("#password")
                #expect(try await driver.run("return localStorage.getItem('muster.session')") is NSNull)
            }
        }
    }
}
