/// Why a `KEY=VALUE` argument of `muster mqtt settings` was refused: the argument, the setting and what was expected.
public struct SettingsArgumentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The argument as typed.
    public let argument: String
    /// What is wrong and what was expected.
    public let message: String

    /// `"IntervalCycle=fast": IntervalCycle must be a whole number of 1 or more, not "fast"`.
    public var description: String { "\"\(argument)\": \(message)" }
}
