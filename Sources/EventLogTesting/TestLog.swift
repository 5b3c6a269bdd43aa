import EventLog
import Foundation
import Synchronization

/// A clock tests drive: starts at a fixed instant and moves only when told.
public final class TestClock: Sendable {
    private let micros: Mutex<Int64>

    /// 2026-01-01T00:00:00Z by default.
    public init(startingAt micros: Int64 = 1_767_225_600_000_000) { self.micros = Mutex(micros) }

    public var now: Int64 { micros.withLock { $0 } }
    public func advance(seconds: Double) { micros.withLock { $0 += Int64(seconds * 1_000_000) } }
    /// The clock as `EventLog.Configuration.clock` takes it.
    public var function: @Sendable () -> Int64 { { self.now } }
}

/// A log in a temporary data directory.
public struct TestLog: Sendable {
    public let directory: TemporaryDirectory
    public let clock = TestClock()

    public init(_ label: String = "log") throws { directory = try TemporaryDirectory(label) }

    /// Opens (or reopens) the log in the temporary directory.
    public func open(_ configure: (inout EventLog.Configuration) -> Void = { _ in }) throws -> EventLog {
        var configuration = EventLog.Configuration()
        configuration.clock = clock.function
        configure(&configuration)
        return try EventLog(directory: directory.url, configuration: configuration)
    }
}

extension NewEvent {
    /// A JSON event for tests: `{"n": n}` of the given type.
    public static func sample(_ type: String = "Sampled", n: Int = 0, id: UUID = UUID()) -> NewEvent {
        NewEvent(id: id, type: type, body: .json("{\"n\":\(n)}"))
    }
}
