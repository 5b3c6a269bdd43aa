import Foundation
import Synchronization

/// A clock the test moves on by hand, shared by a provider and its local server.
final class APNsTestClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))) {
        current = Mutex(start)
    }

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// The clock as providers and servers take it.
    var function: @Sendable () -> Date { { self.now } }
}
