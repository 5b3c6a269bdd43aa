import EventLogTesting
import Foundation
import Hummingbird
import Synchronization
import Testing

/// Nobody reads or writes what is not theirs: every route of `openapi.yaml`, called by every kind of caller
/// (`AuthorizationMatrix.Caller`), answers as `openapi-authorization.tsv` says — and no answer to ann or eve
/// carries what set-up gave joe or the default namespace.
@Suite struct AuthorizationMatrixTests {
    typealias Caller = AuthorizationMatrix.Caller

    @Test func everyRouteOfTheDocumentHasOneRowAndEveryRowARoute() throws {
        let rows = try AuthorizationMatrix.load().rows.map(\.route)
        let documented = OpenAPITests.documentedRoutes
        #expect(documented.count > 70, "openapi.yaml is missing or unreadable")
        let repeated = Dictionary(grouping: rows, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
        #expect(repeated == [], "routes with more than one row in openapi-authorization.tsv")
        #expect(
            documented.subtracting(rows).sorted() == [],
            "routes of openapi.yaml without a row in openapi-authorization.tsv")
        #expect(Set(rows).subtracting(documented).sorted() == [], "rows of openapi-authorization.tsv without a route")
    }

    @Test func everyCallerGetsFromEveryRouteWhatTheTableSays() async throws {
        let matrix = try AuthorizationMatrix.load()
        let api = try await APITester.make {
            $0.rateLimit = 1e9
            $0.burst = 1e9
        }
        defer { api.remove() }
        let world = try await World.make(api)
        // Reads first, so that what the writes change or remove is still there to be read; then removals and
        // answers before the PUTs, so that eve's removing or answering meets nothing of her own by that name.
        let order = ["GET", "DELETE", "POST", "PUT", "PATCH"]
        let rows = order.flatMap { method in matrix.rows.filter { $0.method == method } }
        var mismatches: [String] = []
        var leaks: [String] = []
        var undocumented: [String] = []
        var cells = 0
        for row in rows {
            for caller in Caller.allCases {
                let expected = try #require(row.outcomes[caller])
                let answer = try await world.call(row, as: caller)
                cells += 1
                if !expected.admits(answer.status.code) {
                    mismatches.append(
                        "\(row.route) as \(caller.rawValue): expected \(expected), got \(answer.status.code) \(answer.text.prefix(160))"
                    )
                }
                if !Self.documentedStatuses(row).contains("\(answer.status.code)") {
                    undocumented.append("\(row.route) as \(caller.rawValue): \(answer.status.code)")
                }
                for secret in World.secrets(hiddenFrom: caller) where answer.text.contains(secret) {
                    leaks.append("\(row.route) as \(caller.rawValue) answered \(secret): \(answer.text.prefix(160))")
                }
                if (200..<300).contains(answer.status.code), row.method != "GET" { try await world.restore() }
            }
        }
        #expect(cells == OpenAPITests.documentedRoutes.count * Caller.allCases.count)
        #expect(mismatches == [], "\(mismatches.count) cells differ from openapi-authorization.tsv")
        #expect(leaks == [])
        #expect(undocumented == [], "answers whose status openapi.yaml does not list for the route")
    }

    /// The statuses openapi.yaml lists for the route of `row`.
    static func documentedStatuses(_ row: AuthorizationMatrix.Row) -> Set<String> {
        let paths = OpenAPITests.specification["paths"] as? [String: Any] ?? [:]
        let operation = (paths[row.path] as? [String: Any])?[row.method.lowercased()] as? [String: Any]
        return Set(((operation?["responses"] as? [String: Any]) ?? [:]).keys)
    }
}

/// What the matrix calls the routes on, made before: joe's device "phone" (named with a secret), a message to him,
/// two area notices handed to his phone, a document he uploaded, a named payload and request, a geofence, a beacon
/// and a running geotrigger, a Web Push source, and a user only the default namespace has. Tokens for each caller.
struct World {
    let api: APITester
    let caller: RouterCaller
    let tokens: [AuthorizationMatrix.Caller: String]
    let messageId: String
    /// The send of joe's message.
    let sendId: String
    let documentName: String
    let notices: [String]
    /// Numbers the names that each write must make anew (users, devices, push sources).
    let counter = Counter()

    static let deviceSecret = "matrix-secret-device"
    static let titleSecret = "matrix-secret-title"
    static let requestSecret = "matrix-secret-request"
    static let userSecret = "mallory"

    /// What a caller must never be answered: joe's own things for ann; anything of the default namespace for eve.
    static func secrets(hiddenFrom caller: AuthorizationMatrix.Caller) -> [String] {
        switch caller {
        case .peer: [deviceSecret, titleSecret]
        case .other: [deviceSecret, titleSecret, requestSecret, userSecret]
        default: []
        }
    }

    final class Counter: Sendable {
        let value = Mutex(0)
        func next() -> Int {
            value.withLock {
                $0 += 1; return $0
            }
        }
    }

    static func make(_ api: APITester) async throws -> World {
        let caller = RouterCaller(router: api.server.router())
        func login(_ user: String, namespace: String? = nil, password: String? = nil) async throws -> String {
            try await Self.login(caller, user, namespace: namespace, password: password)
        }
        // joe's expired token, an hour old once the clock moves; then his revoked one.
        let expired = try await login("joe")
        api.t.clock.advance(seconds: 3601)
        let revoked = try await login("joe")
        let logout = try await caller.send(.post, "/api/v1/auth/logout", token: revoked)
        #expect(logout.status == .noContent, "\(logout.text)")
        let joe = try await login("joe")
        let ada = try await login("ada")
        let tokens: [AuthorizationMatrix.Caller: String] = [
            .expired: expired, .revoked: revoked, .user: joe, .peer: try await login("ann"),
            .other: try await login("eve", namespace: "other"), .admin: ada,
        ]
        #expect(
            try await caller.send(.get, "/api/v1/auth/verify", token: expired).status == .unauthorized,
            "an hour and a second later the token has expired")

        func expectCreated(_ answer: APITester.Answer, _ what: String) {
            #expect((200..<300).contains(answer.status.code), "set-up: \(what): \(answer.text)")
        }
        let user = #"{"username":"\#(userSecret)","password":"a-long-password"}"#
        expectCreated(try await caller.send(.post, "/api/v1/users", token: ada, json: user), "a user")
        let template =
            #"{"title":"\#(requestSecret)","body":"Tell us","responseTopic":"/faults/new","payload":{"fields":[{"id":"what","type":"inputString","label":"What broke?"}]}}"#
        expectCreated(try await caller.send(.put, "/api/v1/requests/report", token: ada, json: template), "a request")
        expectCreated(
            try await caller.send(.put, "/api/v1/payloads/colour", token: ada, json: colourPayload), "a payload")
        let sent = try await caller.send(
            .post, "/api/v1/notifications", token: ada,
            json: #"{"to":["joe"],"title":"\#(titleSecret)","body":"B","payload":\#(colourPayload)}"#)
        expectCreated(sent, "a message")
        let messageId = try #require((sent.object["messageIds"] as? [String])?.first)
        let sendId = try #require(sent.object["sendId"] as? String)
        let uploaded = try await caller.send(
            .post, "/api/v1/documents?kind=image", token: joe, body: MediaSamples.file("jpeg"),
            contentType: "image/jpeg")
        expectCreated(uploaded, "a document")
        let documentName = try #require(uploaded.object["name"] as? String)

        let world = World(
            api: api, caller: caller, tokens: tokens, messageId: messageId, sendId: sendId, documentName: documentName,
            notices: [])
        try await world.restore()
        // Two notices of the shop for joe's phone: in, out and in again.
        let off = try await caller.send(
            .put, "/api/v1/settings/automaticUserNotifications", token: ada, json: #"{"value":"false"}"#)
        expectCreated(off, "automatic user notifications off")
        for (lat, minute) in [(48.87, 0), (48.97, 5), (48.87, 10)] {
            let located = try await caller.send(
                .post, "/api/v1/locations", token: joe,
                json: #"{"deviceId":"phone","lat":\#(lat),"lng":2.33,"at":"2026-01-01T01:\#(10 + minute):00Z"}"#)
            expectCreated(located, "joe's location")
        }
        let handed = try await caller.send(.get, "/api/v1/devices/phone/notices", token: joe)
        let notices = handed.array.compactMap { $0["id"] as? String }
        #expect(notices.count == 2, "set-up: two notices for joe's phone: \(handed.text)")
        return World(
            api: api, caller: caller, tokens: tokens, messageId: messageId, sendId: sendId, documentName: documentName,
            notices: notices)
    }

    static func login(
        _ caller: RouterCaller, _ user: String, namespace: String? = nil, password: String? = nil
    ) async throws -> String {
        try await tokens(caller, user, namespace: namespace, password: password).access
    }

    static func tokens(
        _ caller: RouterCaller, _ user: String, namespace: String? = nil, password: String? = nil
    ) async throws -> (access: String, refresh: String) {
        let ns = namespace.map { #","namespace":"\#($0)""# } ?? ""
        let answer = try await caller.send(
            .post, "/api/v1/auth/token",
            json: #"{"username":"\#(user)","password":"\#(password ?? "secret-\(user)")"\#(ns)}"#)
        #expect(answer.status == .ok, "login of \(user): \(answer.text)")
        return (
            try #require(answer.object["accessToken"] as? String),
            try #require(answer.object["refreshToken"] as? String)
        )
    }

    /// Puts back what a write may have removed or changed: joe's phone, the areas, the running geotrigger, the Web
    /// Push source. Their answers are not checked here: a broken set-up shows as the cells that follow.
    func restore() async throws {
        let ada = tokens[.admin]
        let phone = #"{"deviceId":"phone","deviceName":"\#(Self.deviceSecret)","platform":"fcm"}"#
        try await caller.send(.post, "/api/v1/devices", token: tokens[.user], json: phone)
        try await caller.send(.put, "/api/v1/geofences/shop", token: ada, json: AreaRoutesTests.shop)
        try await caller.send(.put, "/api/v1/beacons/door", token: ada, json: AreaKindRoutesTests.counter)
        try await caller.send(.put, "/api/v1/geotriggers/lobby", token: ada, json: GeotriggerMonitorRoutesTests.lobby())
        try await caller.send(.post, "/api/v1/geotriggers/lobby/start", token: ada)
        try await caller.send(
            .post, "/api/v1/push/sources", token: ada,
            json: #"{"name":"browsers","kind":"webpush","subject":"mailto:ops@example.org"}"#)
    }

    /// The route of `row` with its path parameters filled in, called by `who` with the body the route takes.
    func call(_ row: AuthorizationMatrix.Row, as who: AuthorizationMatrix.Caller) async throws -> APITester.Answer {
        var token = tokens[who]
        var path = concrete(row.path)
        var json = body(row.route)
        switch row.route {
        case "POST /api/v1/auth/logout" where [.user, .peer, .other, .admin].contains(who):
            // Its own session, so the caller's shared token stays valid for the cells that follow.
            let (user, namespace) = who == .other ? ("eve", "other") : (Self.users[who] ?? "joe", nil)
            token = try await Self.login(caller, user, namespace: namespace)
        case "PUT /api/v1/users/{name}/password" where who == .admin:
            // Not joe's: every session of his would end, the shared token of the cells that follow too.
            path = "/api/v1/users/\(Self.userSecret)/password"
        case "DELETE /api/v1/users/{name}" where who == .admin || who == .other:
            // A user made for it in the caller's namespace: removing joe would end the shared token of the cells
            // that follow.
            let leaver = "leaver-\(who)"
            let made = try await caller.send(
                .post, "/api/v1/users", token: token, json: #"{"username":"\#(leaver)","password":"a-long-password"}"#)
            #expect(made.status == .created, "set-up: \(leaver): \(made.text)")
            path = "/api/v1/users/\(leaver)"
        case "DELETE /api/v1/payloads/{name}" where who == .admin || who == .other,
            "DELETE /api/v1/requests/{name}" where who == .admin || who == .other:
            // One made for it in the caller's namespace: colour and report are named by the cells that follow.
            let kind = row.path.hasPrefix("/api/v1/payloads") ? "payloads" : "requests"
            let made = try await caller.send(
                .put, "/api/v1/\(kind)/gone", token: token, json: body("PUT /api/v1/\(kind)/{name}"))
            #expect((200..<300).contains(made.status.code), "set-up: \(kind)/gone: \(made.text)")
            path = "/api/v1/\(kind)/gone"
        case "DELETE /api/v1/sessions/{id}":
            // A session of joe's made for it: his shared one serves the cells that follow.
            let fresh = try await Self.login(caller, "joe")
            let own = try await caller.send(.get, "/api/v1/sessions", token: fresh)
            let id = own.array.first { $0["isCurrent"] as? Bool == true }?["sessionId"] as? String
            path = "/api/v1/sessions/\(try #require(id, "set-up: joe's new session: \(own.text)"))"
        case "DELETE /api/v1/groups/{name}" where who == .admin || who == .other:
            // A group made for it in the caller's namespace: ops is named by the cells that follow.
            let made = try await caller.send(.put, "/api/v1/groups/leavers", token: token, json: #"{"members":[]}"#)
            #expect(made.status == .ok, "set-up: leavers: \(made.text)")
            path = "/api/v1/groups/leavers"
        case "DELETE /api/v1/messages/{id}" where who == .admin:
            // A message to joe sent for it: his first one is answered by the cells that follow.
            let sent = try await caller.send(
                .post, "/api/v1/notifications", token: token,
                json: #"{"to":["joe"],"title":"Withdrawn","body":"B","payload":\#(colourPayload)}"#)
            let id = (sent.object["messageIds"] as? [String])?.first
            path = "/api/v1/messages/\(try #require(id, "set-up: a message to withdraw: \(sent.text)"))"
        case "POST /api/v1/withdrawals" where who == .admin:
            // A message to joe sent for it: his first one is answered by the cells that follow.
            let sent = try await caller.send(
                .post, "/api/v1/notifications", token: token,
                json: #"{"to":["joe"],"title":"Withdrawn","body":"B","payload":\#(colourPayload)}"#)
            let id = try #require((sent.object["messageIds"] as? [String])?.first, "set-up: \(sent.text)")
            json = #"{"messageIds":["\#(id)"]}"#
        case "POST /api/v1/sends/{id}/withdraw" where who == .admin:
            // A send to joe made for it: his first message is answered by the cells that follow.
            let sent = try await caller.send(
                .post, "/api/v1/notifications", token: token,
                json: #"{"to":["joe"],"title":"Withdrawn","body":"B","payload":\#(colourPayload)}"#)
            let id = sent.object["sendId"] as? String
            path = "/api/v1/sends/\(try #require(id, "set-up: a send to withdraw: \(sent.text)"))/withdraw"
        case "DELETE /api/v1/documents/{name}" where who == .user || who == .admin:
            // A document of joe's uploaded for it: his photo is named by the cells that follow.
            let uploaded = try await caller.send(
                .post, "/api/v1/documents?kind=image", token: tokens[.user], body: MediaSamples.file("jpeg"),
                contentType: "image/jpeg")
            let name = uploaded.object["name"] as? String
            path = "/api/v1/documents/\(try #require(name, "set-up: a document of joe's: \(uploaded.text)"))"
        case "POST /api/v1/auth/refresh":
            let fresh = try await Self.tokens(caller, "joe")
            json = #"{"refreshToken":"\#(fresh.refresh)"}"#
        case "POST /api/v1/documents":
            path += "?kind=image"
            return try await caller.send(
                .post, path, token: token, body: MediaSamples.file("jpeg"), contentType: "image/jpeg")
        default: break
        }
        return try await caller.send(HTTPRequest.Method(row.method)!, path, token: token, json: json)
    }

    static let users: [AuthorizationMatrix.Caller: String] = [.user: "joe", .peer: "ann", .admin: "ada"]

    /// `/api/v1/messages/{id}` with joe's message's id, and so on: what each parameter names in the set-up.
    func concrete(_ template: String) -> String {
        let segments = template.split(separator: "/").map(String.init)
        var filled: [String] = []
        for (index, segment) in segments.enumerated() {
            guard segment.hasPrefix("{") else {
                filled.append(segment)
                continue
            }
            let owner = index > 0 ? segments[index - 1] : ""
            switch (owner, segment) {
            case ("messages", _): filled.append(messageId)
            case ("sends", _): filled.append(sendId)
            case ("documents", _): filled.append(documentName)
            case ("notices", _): filled.append(template.hasSuffix("/dismiss") ? notices[1] : notices[0])
            case ("geofences", _): filled.append("shop")
            case ("beacons", _): filled.append("door")
            case ("geotriggers", _): filled.append("lobby")
            case ("requests", _): filled.append("report")
            case ("payloads", _): filled.append("colour")
            case ("groups", _): filled.append("ops")
            case ("sources", _): filled.append("browsers")
            case ("settings", _): filled.append("dailyNotificationLimit")
            case ("topics", _): filled.append("a/b")
            case ("app", _): filled.append("0")
            case ("leaflet", _): filled.append("leaflet.css")
            case (_, "{path}"): filled.append("icon.svg")
            case (_, "{deviceId}"): filled.append("phone")
            default: filled.append("joe")  // {name} of users, {user} of quota
            }
        }
        return "/" + filled.joined(separator: "/")
    }

    /// A valid body for each route that takes one; none of them carries a secret.
    func body(_ route: String) -> String? {
        let n = counter.next()
        switch route {
        case "POST /api/v1/auth/token": return #"{"username":"joe","password":"secret-joe"}"#
        case "PUT /api/v1/users/{name}/password": return #"{"password":"secret-joe","currentPassword":"secret-joe"}"#
        case "POST /api/v1/users": return #"{"username":"matrix\#(n)","password":"a-long-password"}"#
        case "POST /api/v1/devices": return #"{"deviceId":"matrix\#(n)","deviceName":"M","platform":"fcm"}"#
        case "POST /api/v1/notifications":
            return #"{"to":["joe"],"title":"T","body":"B","payload":\#(colourPayload)}"#
        case "POST /api/v1/messages/{id}/response":
            return #"{"deviceId":"phone","values":{"simpleDropList":"Red"}}"#
        case "PUT /api/v1/requests/{name}":
            return
                #"{"title":"Report","body":"Tell us","responseTopic":"/faults/new","payload":{"fields":[{"id":"what","type":"inputString","label":"What broke?"}]}}"#
        case "POST /api/v1/requests/{name}/response": return #"{"deviceId":"phone","values":{"what":"the pump"}}"#
        case "PUT /api/v1/payloads/{name}": return colourPayload
        case "POST /api/v1/topics/{topic}": return #"{"x":1}"#
        case "PUT /api/v1/groups/{name}": return #"{"members":["joe"]}"#
        case "PATCH /api/v1/users/{name}": return #"{"phone":"+33 1 23 45 67 89"}"#
        case "PUT /api/v1/settings/{key}": return #"{"value":"100"}"#
        case "PUT /api/v1/geofences/{id}": return AreaRoutesTests.shop
        case "POST /api/v1/areas":
            return #"{"u_geofences":[{"id":"matrix\#(n)","lat":48.87,"lng":2.33,"radius":0.05}]}"#
        case "PUT /api/v1/beacons/{id}": return AreaKindRoutesTests.counter
        case "PUT /api/v1/geotriggers/{id}": return GeotriggerMonitorRoutesTests.lobby()
        case "POST /api/v1/locations": return #"{"deviceId":"phone","lat":48.87,"lng":2.33}"#
        case "POST /api/v1/transitions": return #"{"deviceId":"phone","area":"shop","trigger":"on_exit"}"#
        case "POST /api/v1/beacons/sightings":
            return #"{"deviceId":"phone","uuid":"F2A74FC4-7625-44DB-9B08-CB7E130B2029","major":1,"minor":2,"rssi":-60}"#
        case "POST /api/v1/beacons/adverts":
            return #"{"deviceId":"phone","advert":"\#(AreaKindRoutesTests.advert)","rssi":-60}"#
        case "POST /api/v1/push/sources":
            return #"{"name":"matrix\#(n)","kind":"webpush","subject":"mailto:ops@example.org"}"#
        case "POST /api/v1/push/sources/{name}/test": return #"{"user":"joe"}"#
        case "POST /api/v1/mqtt/devices/{deviceId}/settings": return #"{"user":"joe","settings":["OnInterval=true"]}"#
        case "POST /api/v1/location-requests": return #"{"user":"joe"}"#
        case "POST /api/v1/withdrawals": return #"{"messageIds":["\#(messageId)"]}"#
        case "PUT /api/v1/devices/{deviceId}/trace-logging": return #"{"enabled":true}"#
        default: return nil
        }
    }
}

extension RouterCaller {
    /// Sends `json` as an `application/json` body.
    @discardableResult
    func send(
        _ method: HTTPRequest.Method, _ path: String, token: String? = nil, json: String?
    ) async throws -> APITester.Answer {
        try await send(
            method, path, token: token, body: json.map { Array($0.utf8) },
            contentType: json == nil ? nil : "application/json")
    }
}
