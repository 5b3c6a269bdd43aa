/// A schedule or time zone that cannot be used, with the text at fault.
public struct ScheduleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was expected, naming the offending text.
    public let message: String

    /// Creates a schedule error.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
