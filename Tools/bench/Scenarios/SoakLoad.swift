import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

/// The soak's mixed load at fixed rates (requests per second), paced by the clock whatever the server's speed: an
/// open loop, so a server that slows down faces more requests in flight rather than fewer.
struct SoakRates: Sendable {
    /// Password logins of the crew and the administrator in turn (each replaces that member's token; the old pair is left to expire).
    var logins = 1.0
    /// Refreshes along the refresh chains (each rotates a pair: one revoked, one issued).
    var refreshes = 4.0
    /// Sends to the crew's group by the administrator (one message per member).
    var sends = 1.0
    /// Inbox reads by the crew, each answering every message it lists (the responses).
    var inboxReads = 10.0
    /// Location fixes of the crew's devices walking through the geofences.
    var fixes = 40.0
    /// Document uploads (small JPEG images).
    var uploads = 1.0
    /// Live streams (`GET /api/v1/inbox`, `text/event-stream`) opened, seen open, and dropped.
    var streams = 10_000.0 / 600
}

/// The soak's users, tokens and counts, shared by every request of the load.
final class SoakLoad: Sendable {
    static let password = "soak-password"
    /// The crew: `crew0`, `crew1`, …
    static func crew(_ size: Int) -> [String] { (0..<size).map { "crew\($0)" } }
    static let administrator = "boss"
    static let churn = "churn"
    static let group = "crew"
    static let devicesPerMember = 20
    static let payload = #"{"responseTopic":"/soak/answers","fields":[{"id":"ok","type":"checkbox","label":"Seen?"}]}"#

    /// How many of each kind of request were answered as expected, and how many not (with the first few reasons).
    struct Counts: Sendable {
        var done: [String: Int] = [:]
        var failed: [String: Int] = [:]
        var reasons: [String] = []
        /// Requests not started because `maximumInFlight` were still waiting, or every refresh chain was.
        var skipped = 0
        var failures: Int { failed.values.reduce(0, +) }
    }

    private struct State {
        var access: [String: String] = [:]
        /// Each chain's current refresh token; nil while one of its refreshes is in flight.
        var chains: [String?] = []
        var busyInboxes: Set<String> = []
        var positions: [String: (lat: Double, lng: Double)] = [:]
        var turn: [String: Int] = [:]
        var inFlight = 0
        var counts = Counts()
        var random = CitySeed(seed: 16)
    }

    static let maximumInFlight = 512
    let base: String
    let port: Int
    /// The members of the group, who log in, read, answer, walk, upload and open live streams.
    let crew: [String]
    /// Sessions of `churn` refreshed in turn, each by one request at a time.
    let chains: Int
    private let state = Mutex(State())

    init(base: String, port: Int, crew: Int, chains: Int) {
        self.base = base
        self.port = port
        self.crew = Self.crew(crew)
        self.chains = chains
    }

    var counts: Counts { state.withLock { $0.counts } }

    /// Logs every crew member and the administrator in, and starts the refresh chains.
    ///
    /// Called again before the measured window (`chains: false`): the pause before it may outlast the tokens.
    func prepare(_ client: HTTPClient, chains startChains: Bool = true) async throws {
        let churn = startChains ? Array(repeating: Self.churn, count: chains) : []
        // Two at a time: a login checks a password hash, which takes a core for a while.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, user) in (crew + [Self.administrator] + churn).enumerated() {
                if index >= 2 { try await group.next() }
                group.addTask {
                    let tokens = try await self.login(client, user)
                    self.state.withLock { state in
                        if user == Self.churn {
                            state.chains.append(tokens.refreshToken)
                        } else {
                            state.access[user] = tokens.accessToken
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    /// Runs the load at `rates` for `duration`, then waits for the requests still in flight.
    func run(_ client: HTTPClient, rates: SoakRates, for duration: Duration) async {
        let kinds: [(Double, @Sendable () async throws -> Void)] = [
            (rates.logins, { try await self.relogin(client) }),
            (rates.refreshes, { try await self.refresh(client) }),
            (rates.sends, { try await self.send(client) }),
            (rates.inboxReads, { try await self.readInbox(client) }),
            (rates.fixes, { try await self.fix(client) }),
            (rates.uploads, { try await self.upload(client) }),
            (rates.streams, { try await self.stream() }),
        ]
        let names = ["login", "refresh", "send", "inbox", "fix", "upload", "stream"]
        let start = ContinuousClock.now
        let tick = Duration.milliseconds(50)
        await withDiscardingTaskGroup { group in
            var started = [Double](repeating: 0, count: kinds.count)
            var next = start
            while next < start + duration {
                let elapsed = seconds(since: start)
                for (index, (rate, operation)) in kinds.enumerated() {
                    // Whole requests due by now at this rate, less those started: the pace holds over the run.
                    while started[index] + 1 <= rate * elapsed {
                        started[index] += 1
                        let admitted = state.withLock { state in
                            guard state.inFlight < Self.maximumInFlight else {
                                state.counts.skipped += 1
                                return false
                            }
                            state.inFlight += 1
                            return true
                        }
                        guard admitted else { continue }
                        let name = names[index]
                        group.addTask {
                            do {
                                try await operation()
                                self.state.withLock { $0.counts.done[name, default: 0] += 1 }
                            } catch is Skipped {
                                self.state.withLock { $0.counts.skipped += 1 }
                            } catch {
                                self.state.withLock { state in
                                    state.counts.failed[name, default: 0] += 1
                                    if state.counts.reasons.count < 5 {
                                        state.counts.reasons.append("\(name): \(error)")
                                    }
                                }
                            }
                            self.state.withLock { $0.inFlight -= 1 }
                        }
                    }
                }
                next += tick
                try? await Task.sleep(until: next, clock: .continuous)
            }
        }
    }

    // MARK: The requests

    /// A request not made because the ones it must follow are still waiting (a refresh chain's last refresh).
    private struct Skipped: Error {}

    private struct Tokens: Decodable {
        var accessToken: String
        var refreshToken: String
    }

    private func login(_ client: HTTPClient, _ user: String) async throws -> Tokens {
        let body = try JSONEncoder().encode(["username": user, "password": Self.password])
        return try JSONDecoder().decode(
            Tokens.self, from: try await exchange(client, .POST, "/api/v1/auth/token", json: body, expect: 200))
    }

    private func relogin(_ client: HTTPClient) async throws {
        let user = state.withLock { state in
            defer { state.turn["login", default: 0] += 1 }
            let everyone = crew + [Self.administrator]
            return everyone[state.turn["login", default: 0] % everyone.count]
        }
        let tokens = try await login(client, user)
        state.withLock { $0.access[user] = tokens.accessToken }
    }

    private func refresh(_ client: HTTPClient) async throws {
        let taken: (Int, String)? = state.withLock { state in
            guard let index = state.chains.firstIndex(where: { $0 != nil }), let token = state.chains[index] else {
                return nil
            }
            state.chains[index] = nil
            return (index, token)
        }
        guard let (index, token) = taken else { throw Skipped() }
        do {
            let body = try JSONEncoder().encode(["refreshToken": token])
            let tokens = try JSONDecoder().decode(
                Tokens.self, from: try await exchange(client, .POST, "/api/v1/auth/refresh", json: body, expect: 200))
            state.withLock { $0.chains[index] = tokens.refreshToken }
        } catch {
            // The chain goes on from a new login, so one failure does not stop the refreshes.
            let tokens = try await login(client, Self.churn)
            state.withLock { $0.chains[index] = tokens.refreshToken }
            throw error
        }
    }

    private func send(_ client: HTTPClient) async throws {
        let body = Data(
            #"{"groups":["\#(Self.group)"],"title":"Soak","body":"Answer me","payload":\#(Self.payload)}"#.utf8)
        _ = try await exchange(
            client, .POST, "/api/v1/notifications", json: body, as: Self.administrator, expect: 201)
    }

    private struct InboxItem: Decodable { var messageId: String }

    private func readInbox(_ client: HTTPClient) async throws {
        // One reader per member at a time, so no message is answered twice.
        let user: String? = state.withLock { state in
            let user = crew[(state.turn["inbox", default: 0]) % crew.count]
            state.turn["inbox", default: 0] += 1
            return state.busyInboxes.insert(user).inserted ? user : nil
        }
        guard let user else { return }
        defer { _ = state.withLock { $0.busyInboxes.remove(user) } }
        let items = try JSONDecoder().decode(
            [InboxItem].self, from: try await exchange(client, .GET, "/api/v1/inbox", as: user, expect: 200))
        for item in items {
            let answer = Data(#"{"deviceId":"\#(user)-phone","values":{"ok":true}}"#.utf8)
            _ = try await exchange(
                client, .POST, "/api/v1/messages/\(item.messageId)/response", json: answer, as: user, expect: 201)
        }
    }

    private func fix(_ client: HTTPClient) async throws {
        let (user, device, lat, lng) = state.withLock { state in
            let n = state.turn["fix", default: 0]
            state.turn["fix", default: 0] += 1
            let user = crew[n % crew.count]
            let device = "\(user)-d\((n / crew.count) % Self.devicesPerMember)"
            var position = state.positions[device] ?? (lat: 0, lng: 0)
            if state.positions[device] == nil {
                position = (48.80 + state.random.unit() * 0.15, 2.25 + state.random.unit() * 0.2)
            }
            // A walk of up to ±20 m per fix, kept inside the fenced part of the city.
            position.lat = min(48.95, max(48.80, position.lat + (state.random.unit() - 0.5) * 0.00036))
            position.lng = min(2.45, max(2.25, position.lng + (state.random.unit() - 0.5) * 0.00054))
            state.positions[device] = position
            return (user, device, position.lat, position.lng)
        }
        let body = Data(
            String(format: #"{"deviceId":"%@","lat":%.6f,"lng":%.6f,"accuracy":10}"#, device, lat, lng).utf8)
        _ = try await exchange(client, .POST, "/api/v1/locations", json: body, as: user, expect: 200)
    }

    private func upload(_ client: HTTPClient) async throws {
        var image = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01])
        image.append(Data(repeating: 0x5A, count: 8 << 10))
        image.append(contentsOf: [0xFF, 0xD9])
        _ = try await exchange(
            client, .POST, "/api/v1/documents?kind=image", body: image, contentType: "image/jpeg",
            as: nextMember("upload"), expect: 201)
    }

    /// Opens the member's inbox as a live stream on a connection of its own, waits until the server says it is open,
    /// and drops the connection.
    private func stream() async throws {
        let user = nextMember("stream")
        let token = try accessToken(user)
        let port = self.port
        try await onThread("soak-stream") {
            let socket = try LoopbackSocket(port: port)
            defer { socket.close() }
            try socket.send(
                get: "/api/v1/inbox", headers: ["Accept": "text/event-stream", "Authorization": "Bearer \(token)"])
            let text = try socket.read { $0.contains(": stream open") || $0.hasPrefix("HTTP/1.1 4") }
            guard text.hasPrefix("HTTP/1.1 200"), text.contains(": stream open") else {
                throw BenchError.command("the live stream did not open: \(text.prefix(200).debugDescription)")
            }
        }
    }

    // MARK: Plumbing

    private func nextMember(_ kind: String) -> String {
        state.withLock { state in
            defer { state.turn[kind, default: 0] += 1 }
            return crew[state.turn[kind, default: 0] % crew.count]
        }
    }

    private func accessToken(_ user: String) throws -> String {
        guard let token = state.withLock({ $0.access[user] }) else { throw BenchError.command("\(user) has no token") }
        return token
    }

    private func exchange(
        _ client: HTTPClient, _ method: HTTPMethod, _ path: String, json: Data? = nil, body: Data? = nil,
        contentType: String? = nil, as user: String? = nil, expect status: Int
    ) async throws -> Data {
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        if let user { request.headers.add(name: "Authorization", value: "Bearer \(try accessToken(user))") }
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: json))
        } else if let body {
            request.headers.add(name: "Content-Type", value: contentType ?? "application/octet-stream")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response = try await client.execute(request, timeout: .seconds(60))
        let answer = try await response.body.collect(upTo: 16 << 20)
        guard Int(response.status.code) == status else {
            throw BenchError.command(
                "\(method.rawValue) \(path): \(response.status.code), expected \(status): \(String(buffer: answer).prefix(300))"
            )
        }
        return Data(answer.readableBytesView)
    }
}
