/// Something in an imported schedule that was accepted but deserves a look, e.g. the seed's
/// `"thi"` read as Thursday. Never a silent change.
public struct ScheduleWarning: Sendable, Hashable, CustomStringConvertible {
    /// Where in the schedule, e.g. `week.thi`.
    public let path: String
    /// What was done, in words.
    public let message: String

    /// `path: message`.
    public var description: String { "\(path): \(message)" }
}
