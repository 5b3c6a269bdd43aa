import AsyncHTTPClient
import Foundation
import NIOCore
import PushProviders
import Synchronization

/// The push-fanout baseline: pre-encrypted Web Push requests posted by a plain async-http-client, configured as
/// the Web Push provider's client is (same connection pool limit), with `concurrency` requests in flight.
struct PlainPushSender {
    /// One request ready to post: the subscription's endpoint and its encrypted body.
    struct Prepared: Sendable {
        var url: String
        var body: ByteBuffer
    }

    /// What the run saw.
    struct Outcome: Sendable {
        var seconds: Double
        var accepted: Int
        var refused: Int
    }

    let authorization: String
    let concurrency: Int
    let connections: ProviderConnectionOptions

    /// Encrypts `plaintext` for every subscription (JSON as a browser gives it), on `workers` tasks.
    static func prepare(_ plaintext: [UInt8], for subscriptions: [String], workers: Int) async throws -> [Prepared] {
        let chunk = (subscriptions.count + workers - 1) / max(workers, 1)
        return try await withThrowingTaskGroup(of: (Int, [Prepared]).self) { group in
            for (index, start) in stride(from: 0, to: subscriptions.count, by: max(chunk, 1)).enumerated() {
                let part = Array(subscriptions[start..<min(subscriptions.count, start + chunk)])
                group.addTask {
                    let prepared = try part.map { json in
                        let subscription = try WebPushSubscription(json: json)
                        let body = try WebPushEncryption.encrypt(plaintext, to: subscription)
                        return Prepared(url: subscription.endpoint.absoluteString, body: ByteBuffer(bytes: body))
                    }
                    return (index, prepared)
                }
            }
            var parts: [(Int, [Prepared])] = []
            for try await part in group { parts.append(part) }
            return parts.sorted { $0.0 < $1.0 }.flatMap(\.1)
        }
    }

    /// Posts every request, `concurrency` at once, and returns once each is answered.
    func send(_ requests: [Prepared]) async throws -> Outcome {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: connections.maximumConnections)
        configuration.timeout = .init(connect: .seconds(10), read: .init(connections.timeout))
        configuration.httpVersion = .automatic
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let next = SharedCount()
        let accepted = SharedCount()
        let start = ContinuousClock.now
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<concurrency {
                    group.addTask {
                        while true {
                            let index = next.take()
                            guard index < requests.count else { return }
                            if try await post(requests[index], with: client) { _ = accepted.take() }
                        }
                    }
                }
                try await group.waitForAll()
            }
        } catch {
            try? await client.shutdown()
            throw error
        }
        let elapsed = seconds(since: start)
        try await client.shutdown()
        let taken = accepted.value
        return Outcome(seconds: elapsed, accepted: taken, refused: requests.count - taken)
    }

    /// One push with the headers the Web Push provider sends; true when answered 201.
    private func post(_ prepared: Prepared, with client: HTTPClient) async throws -> Bool {
        var request = HTTPClientRequest(url: prepared.url)
        request.method = .POST
        request.headers.add(name: "Authorization", value: authorization)
        request.headers.add(name: "Content-Encoding", value: "aes128gcm")
        request.headers.add(name: "Content-Type", value: "application/octet-stream")
        request.headers.add(name: "TTL", value: "86400")
        request.headers.add(name: "Topic", value: "bench")
        request.headers.add(name: "Urgency", value: "high")
        request.body = .bytes(prepared.body)
        let response = try await client.execute(request, timeout: TimeAmount(connections.timeout))
        _ = try await response.body.collect(upTo: 64 * 1024)
        return response.status.code == 201
    }
}

/// A count many tasks advance at once.
final class SharedCount: Sendable {
    private let count = Atomic<Int>(0)

    /// Adds one and returns the count before.
    func take() -> Int { count.add(1, ordering: .relaxed).oldValue }

    var value: Int { count.load(ordering: .relaxed) }
}
