import Foundation
import MQTT
import MQTTTesting
import Synchronization

/// The broker's users in these tests: Muster may read and write everything; a phone publishes under `devices/` and
/// reads `muster/`; the ACL denies it `forbidden/`.
let testUsers = [
    MQTTBrokerUser.everything(name: "muster", password: "s3cret-muster-pw"),
    MQTTBrokerUser(name: "phone", password: "phone-pw-42", read: ["muster/#"], write: ["devices/#"]),
]

/// A handler's gate the test opens: `pass()` waits until the test calls `open(failing:)`.
final class Gate: Sendable {
    private let state = Mutex<(open: Bool, error: TestFailure?, waiters: [CheckedContinuation<Void, any Error>])>(
        (false, nil, []))

    func pass() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let outcome = state.withLock { state -> Result<Void, any Error>? in
                if state.open { return state.error.map { .failure($0) } ?? .success(()) }
                state.waiters.append(continuation)
                return nil
            }
            if let outcome { continuation.resume(with: outcome) }
        }
    }

    /// Lets the waiting and later handlers go on, throwing `error` from them when given.
    func open(failing error: TestFailure? = nil) {
        let waiters = state.withLock { state in
            state.open = true
            state.error = error
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters {
            if let error { waiter.resume(throwing: error) } else { waiter.resume() }
        }
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
}
