/// What the appender believes about the stream; the append fails with `.conflict` when it is wrong.
public enum ExpectedVersion: Sendable, Hashable, CustomStringConvertible {
    /// No check.
    case any
    /// The stream must not exist yet.
    case noStream
    /// The stream must have at least one event.
    case streamExists
    /// The stream's last event must have this version.
    case exact(UInt64)

    /// Parses `any`, `no-stream`, `stream-exists` or a number, as the CLI accepts them.
    public init?(argument: String) {
        switch argument {
        case "any": self = .any
        case "no-stream": self = .noStream
        case "stream-exists": self = .streamExists
        default:
            guard let n = UInt64(argument) else { return nil }
            self = .exact(n)
        }
    }

    public var description: String {
        switch self {
        case .any: "any"
        case .noStream: "no-stream"
        case .streamExists: "stream-exists"
        case .exact(let n): String(n)
        }
    }

    /// Whether a stream currently at `actual` (0 = does not exist) satisfies the expectation.
    func isSatisfied(by actual: UInt64) -> Bool {
        switch self {
        case .any: true
        case .noStream: actual == 0
        case .streamExists: actual > 0
        case .exact(let n): actual == n
        }
    }
}
