import Crypto
import Foundation
import Hummingbird
import PushProviders
import Synchronization

/// The local Web Push endpoint's subscriptions, faults, received pushes and waiters, and its handling of one push.
final class WebPushEndpointState: Sendable {
    struct Subscription {
        var privateKey: P256.KeyAgreement.PrivateKey
        var auth: [UInt8]
        var removed = false
    }

    struct Values {
        var origin = ""
        var subscriptions: [String: Subscription] = [:]
        var faults: [String: [WebPushFault]] = [:]
        var anyFaults: [WebPushFault] = []
        var received: [WebPushReceivedPush] = []
        var receivedCount = 0
        var requestCount = 0
        /// Requests by subscription id, whatever they were answered.
        var requestsBySubscription: [String: Int] = [:]
        var held: [CheckedContinuation<Void, Never>] = []
        var waiters: [(id: UUID, count: Int, continuation: CheckedContinuation<Bool, Never>)] = []
        var stopped = false
    }

    let expectedKey: String?
    let bulk: Bool
    let values = Mutex(Values())

    init(expectedKey: String?, bulk: Bool) {
        self.expectedKey = expectedKey
        self.bulk = bulk
    }

    func listening(on port: Int) { values.withLock { $0.origin = "http://127.0.0.1:\(port)" } }

    func add(id: String, privateKey: P256.KeyAgreement.PrivateKey, auth: [UInt8]) {
        values.withLock { $0.subscriptions[id] = Subscription(privateKey: privateKey, auth: auth) }
    }

    func remove(id: String) { values.withLock { $0.subscriptions[id]?.removed = true } }

    func inject(_ fault: WebPushFault, times: Int, subscription: String?) {
        let faults = Array(repeating: fault, count: max(0, times))
        values.withLock { values in
            if let subscription {
                values.faults[subscription, default: []] += faults
            } else {
                values.anyFaults += faults
            }
        }
    }

    /// One `POST /push/<id>`: a fault if one is queued; else 404 for an unknown subscription, 410 for an ended
    /// one, 401/403 for a bad VAPID header, 400 for a body that does not decrypt, 413 past 4096 bytes; else the
    /// push is kept and answered 201 with a `Location`.
    func take(_ request: Request, id: String) async -> Response {
        let (fault, subscription, origin) = values.withLock { values in
            values.requestCount += 1
            values.requestsBySubscription[id, default: 0] += 1
            var fault: WebPushFault?
            if var queue = values.faults[id], !queue.isEmpty {
                fault = queue.removeFirst()
                values.faults[id] = queue
            } else if !values.anyFaults.isEmpty {
                fault = values.anyFaults.removeFirst()
            }
            return (fault, values.subscriptions[id], values.origin)
        }
        switch fault?.kind {
        case .status(let status, let retryAfter):
            var headers = HTTPFields()
            if let retryAfter { headers[.init("Retry-After")!] = retryAfter }
            return Self.answer(status, "fault injected: \(status)", headers: headers)
        case .hold:
            await hold()
            return Self.answer(503, "the endpoint stopped")
        case nil: break
        }
        guard let subscription else { return Self.answer(404, "no such subscription") }
        if subscription.removed { return Self.answer(410, "the subscription ended") }
        let claims: VAPIDClaims
        do {
            claims = try await VAPID.verify(authorization: request.headers[.authorization] ?? "", audience: origin)
        } catch {
            return Self.answer(401, error.message)
        }
        if let expectedKey, WebPushBase64URL.decode(expectedKey) != WebPushBase64URL.decode(claims.publicKey) {
            return Self.answer(403, "the token is signed by another application server key")
        }
        guard request.headers[.contentEncoding]?.lowercased() == "aes128gcm" else {
            return Self.answer(415, "expected Content-Encoding: aes128gcm")
        }
        guard let ttl = request.headers[.init("TTL")!].flatMap({ Int($0) }), ttl >= 0 else {
            return Self.answer(400, "expected a TTL header of whole seconds")
        }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: 4096)
        } catch {
            return Self.answer(413, "the body is longer than 4096 bytes")
        }
        let plaintext: [UInt8]
        do {
            plaintext = try WebPushEncryption.decrypt(
                body.readableBytesView, privateKey: subscription.privateKey, auth: subscription.auth)
        } catch {
            return Self.answer(400, error.message)
        }
        let location = "/receipts/\(UUID().uuidString.lowercased())"
        let push = WebPushReceivedPush(
            subscription: id, plaintext: plaintext, ttl: ttl, topic: request.headers[.init("Topic")!],
            urgency: request.headers[.init("Urgency")!], vapid: claims, location: location)
        record(push)
        return Response(status: .created, headers: [.location: location])
    }

    /// Keeps (or, in bulk mode, counts) a push and wakes the waiters it satisfies.
    private func record(_ push: WebPushReceivedPush) {
        let woken = values.withLock { values in
            values.receivedCount += 1
            if !bulk { values.received.append(push) }
            let count = values.receivedCount
            let woken = values.waiters.filter { $0.count <= count }.map(\.continuation)
            values.waiters.removeAll { $0.count <= count }
            return woken
        }
        for continuation in woken { continuation.resume(returning: true) }
    }

    /// Whether `count` pushes arrived; false when the endpoint stopped first or the waiting task was cancelled (a
    /// test past its time limit must end, not wait for pushes that will not come).
    func wait(for count: Int) async -> Bool {
        let id = UUID()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let answer: Bool? = values.withLock { values in
                    if values.receivedCount >= count { return true }
                    if values.stopped || Task.isCancelled { return false }
                    values.waiters.append((id, count, continuation))
                    return nil
                }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            let waiting = values.withLock { values in
                let waiting = values.waiters.first { $0.id == id }?.continuation
                values.waiters.removeAll { $0.id == id }
                return waiting
            }
            waiting?.resume(returning: false)
        }
    }

    private func hold() async {
        await withCheckedContinuation { continuation in
            let stopped = values.withLock { values in
                if !values.stopped { values.held.append(continuation) }
                return values.stopped
            }
            if stopped { continuation.resume() }
        }
    }

    func stop() {
        let (held, waiters) = values.withLock { values in
            values.stopped = true
            defer {
                values.held = []
                values.waiters = []
            }
            return (values.held, values.waiters.map(\.continuation))
        }
        for continuation in held { continuation.resume() }
        for continuation in waiters { continuation.resume(returning: false) }
    }

    private static func answer(_ status: Int, _ text: String, headers: HTTPFields = [:]) -> Response {
        var headers = headers
        headers[.contentType] = "text/plain; charset=utf-8"
        return Response(
            status: .init(code: status), headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
