import EventLogTesting
import Foundation
import NATS
import NATSTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Connecting, losing the server and getting it back, closing; and what errors say.
@Suite(.serialized, .natsServers(1)) struct ConnectionTests {
    @Test func theConnectionReportsTheLossOfItsServerAndItsReturn() async throws {
        try await withConnection { connection, cluster in
            let name = uniqueName("KEPT")
            try await connection.createOrUpdateStream(StreamConfiguration(name: name, subjects: ["\(name).>"]))
            _ = try await connection.publish(subject: "\(name).x", data: .utf8("before"), expectedLastSequence: 0)
            var states = connection.stateUpdates().makeAsyncIterator()
            #expect(await states.next() == .connected)
            #expect(connection.connectedServer == cluster.servers[0].url)
            await cluster.kill(server: 0)
            #expect(await states.next() == .reconnecting)
            #expect(connection.connectedServer == nil)
            try await cluster.restart(server: 0)
            #expect(await states.next() == .connected)
            #expect(connection.reconnects == 1)
            // JetStream is back with its store: the stream goes on after its message of before.
            try await cluster.waitUntilReady()
            let ack = try await connection.publish(subject: "\(name).x", data: .utf8("after"), expectedLastSequence: 1)
            #expect(ack.sequence == 2)
        }
    }

    @Test func afterCloseTheStateIsClosedAndCallsThrowClosed() async throws {
        let cluster = try sharedServers()
        let connection = try await NATSConnection.connect(cluster.configuration(name: "closing"))
        let updates = connection.stateUpdates()
        await connection.close()
        #expect(connection.state == .closed)
        var seen: [NATSConnectionState] = []
        for await state in updates { seen.append(state) }
        #expect(seen == [.connected, .closed])
        let error = await #expect(throws: NATSError.self) {
            try await connection.publish(subject: "anything", data: .utf8("x"))
        }
        #expect(error?.code == .closed, "\(String(describing: error))")
    }

    @Test func connectingWhereNoServerListensFailsAsUnavailableWithoutTheCredentials() async throws {
        try await withRefusingPort { port in
            let configuration = NATSConfiguration(
                servers: "nats://muster:url-secret-42@127.0.0.1:\(port)", name: "nowhere", userName: "muster",
                password: "option-secret-43", connectTimeout: .milliseconds(500))
            let started = ContinuousClock.now
            let error = await #expect(throws: NATSError.self) { try await NATSConnection.connect(configuration) }
            #expect(ContinuousClock.now - started < .seconds(5))
            #expect(error?.code == .unavailable, "\(String(describing: error))")
            #expect(error?.call == "natsConnection_Connect")
            #expect(error?.description.contains("127.0.0.1:\(port)") == true, "\(String(describing: error))")
            for text in [error?.description ?? "", configuration.description] {
                #expect(!text.contains("url-secret-42") && !text.contains("option-secret-43"), "\(text)")
            }
        }
    }

    /// Runs `body` with a loopback port that is bound but not listening, so that connecting to it is refused and
    /// nothing else can listen there meanwhile.
    private func withRefusingPort(_ body: (Int) async throws -> Void) async throws {
        let (socket, port) = try LoopbackPort.bound()
        defer { Glibc.close(socket) }
        try await body(port)
    }

}

/// Servers that take one user only: the wrong password is refused, and no password shows in an error.
@Suite struct AuthenticationTests {
    @Test func aWrongPasswordIsRefusedWithoutShowingItAndTheRightOneIsTaken() async throws {
        let cluster = try await NATSCluster(servers: 1, userName: "muster", password: "server-secret-44")
        var wrong = cluster.configuration(name: "intruder")
        wrong.password = "wrong-secret-45"
        let error = await #expect(throws: NATSError.self) { try await NATSConnection.connect(wrong) }
        #expect(error?.code == .refused, "\(String(describing: error))")
        #expect(error?.description.contains("wrong-secret-45") == false, "\(String(describing: error))")

        let connection = try await NATSConnection.connect(cluster.configuration(name: "muster"))
        #expect(connection.state == .connected)
        #expect(!connection.configuration.description.contains("server-secret-44"))
        await connection.close()
        await cluster.stopAll()
    }
}
