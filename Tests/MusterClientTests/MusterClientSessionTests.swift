import Foundation
import Testing

@testable import MusterClient

/// The client's own bookkeeping of the login: what it decides without asking a server.
///
/// The server URL is a closed local port, so a request that should not be made fails loudly as `transport`.
@Suite struct MusterClientSessionTests {
    private static let nowhere = URL(string: "http://127.0.0.1:1")!
    private static let now = Date(timeIntervalSince1970: 1_795_280_400)

    private func client(_ tokens: AuthTokens?, store: InMemoryTokenStore? = nil) -> (MusterClient, InMemoryTokenStore) {
        let store = store ?? InMemoryTokenStore(tokens)
        let client = MusterClient(serverURL: Self.nowhere, tokenStore: store, now: { Self.now })
        return (client, store)
    }

    private func tokens(expiringIn seconds: TimeInterval, refresh: String? = "refresh-1") -> AuthTokens {
        AuthTokens(
            accessToken: "access-1", refreshToken: refresh, expiresAt: Self.now.addingTimeInterval(seconds),
            username: "anna", preferredUsername: "Anna", serverType: .internal)
    }

    @Test func aSavedLoginIsLoadedAtStart() {
        let (client, _) = client(tokens(expiringIn: 3_600))
        #expect(client.tokens?.accessToken == "access-1")
        #expect(client.session.username == "anna")
        #expect(client.session.preferredUsername == "Anna")
        #expect(client.session.serverType == .internal)
        #expect(client.session.errorStr.isEmpty)
    }

    @Test func anUnreadableStoreIsReportedNotFatal() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.url.appendingPathComponent("tokens.json")
        try Data("garbage".utf8).write(to: url)
        let client = MusterClient(serverURL: Self.nowhere, tokenStore: FileTokenStore(url: url))
        #expect(client.tokens == nil)
        #expect(client.session.error?.code == .tokenStorage)
        #expect(!client.session.authValid)
    }

    @Test func aFreshTokenIsValidWithoutARequest() async {
        let (client, _) = client(tokens(expiringIn: 3_600))
        let session = await client.ensureValidToken()
        #expect(session.authValid)
        #expect(session.errorStr.isEmpty)
        #expect(session.statusCode == nil)
        #expect(session.serverType == .internal)
        #expect(session.username == "anna")
    }

    @Test func anExpiredTokenWithoutRefreshTokenMeansLogInAgain() async {
        let (client, store) = client(tokens(expiringIn: -10, refresh: nil))
        let session = await client.ensureValidToken()
        #expect(!session.authValid)
        #expect(session.error?.code == .loginRequired)
        #expect(!session.errorStr.isEmpty)
        #expect(client.tokens == nil)
        #expect(store.load() == nil)
    }

    @Test func aTokenAboutToExpireIsRefreshedAndAnUnreachableServerKeepsTheLogin() async {
        let (client, store) = client(tokens(expiringIn: 10))
        let session = await client.ensureValidToken()
        #expect(!session.authValid)
        #expect(session.error?.code == .transport)
        #expect(session.statusCode == nil)
        // Nothing said the refresh token is dead: it is kept for the next attempt.
        #expect(client.tokens?.refreshToken == "refresh-1")
        #expect(store.load()?.refreshToken == "refresh-1")
    }

    @Test func notLoggedIn() async {
        let (client, _) = client(nil)
        let ensured = await client.ensureValidToken()
        #expect(!ensured.authValid)
        #expect(ensured.error?.code == .loginRequired)
        let verified = await client.verifyAuthToken()
        #expect(!verified.authValid)
        #expect(verified.error?.code == .loginRequired)
    }

    @Test func aDataOperationWithoutLoginThrowsAndRecords() async {
        let (client, _) = client(nil)
        let error = await #expect(throws: MusterClientError.self) { try await client.inbox() }
        #expect(error?.code == .loginRequired)
        #expect(error?.requiresLogin == true)
        #expect(client.session.errorStr == error?.message)
    }

    @Test func anUnreachableServerIsATransportErrorInTheSession() async {
        let (client, _) = client(nil)
        let session = await client.authWithInternal(username: "anna", password: "pw")
        #expect(!session.authValid)
        #expect(session.statusCode == nil)
        #expect(session.error?.code == .transport)
        #expect(session.errorStr.contains("127.0.0.1"))
        #expect(client.tokens == nil)
    }

    @Test func anExpiredOAuthJWTIsNotKept() async {
        let (client, store) = client(nil)
        let session = await client.authWithOAuth(token: jwt(#"{"sub":"anna","exp":1700000000}"#))
        #expect(!session.authValid)
        #expect(session.serverType == .oauth)
        #expect(session.error?.code == .loginRequired)
        #expect(client.tokens == nil)
        #expect(store.load() == nil)
    }

    @Test func logoutWithoutLoginSucceeds() async {
        let (client, _) = client(nil)
        let session = await client.logout()
        #expect(!session.authValid)
        #expect(session.succeeded)
    }

    @Test func logoutForgetsTheLoginEvenWhenTheServerCannotBeTold() async {
        let (client, store) = client(tokens(expiringIn: 3_600))
        let session = await client.logout()
        #expect(!session.authValid)
        #expect(session.username == nil)
        #expect(session.errorStr.contains("server was not told"))
        #expect(client.tokens == nil)
        #expect(store.load() == nil)
    }

    @Test(arguments: [(91.0, 0.0), (-91.0, 0.0), (0.0, 181.0), (Double.nan, 0.0), (0.0, Double.infinity)])
    func aLocationOffTheGlobeIsRefusedBeforeSending(_ latitude: Double, _ longitude: Double) async {
        let (client, _) = client(tokens(expiringIn: 3_600))
        let error = await #expect(throws: MusterClientError.self) {
            _ = try await client.publishCurrentLocation(deviceId: "d", latitude: latitude, longitude: longitude)
        }
        #expect(error?.code == .invalidArgument)
    }

    @Test func aLiveStreamWithoutLoginStopsAtOnce() async {
        let (client, _) = client(nil)
        let error = await #expect(throws: MusterClientError.self) {
            for try await _ in client.inboxUpdates() {}
        }
        #expect(error?.code == .loginRequired)
    }

    @Test func aLiveStreamEndsWhenItsConsumerStops() async throws {
        let (client, _) = client(tokens(expiringIn: 3_600))
        let consumer = Task {
            var received = 0
            // The server is unreachable: the stream keeps reconnecting until the task is cancelled.
            for try await _ in client.topic("/orders/#") { received += 1 }
            return received
        }
        consumer.cancel()
        #expect(try await consumer.value == 0)
    }
}
