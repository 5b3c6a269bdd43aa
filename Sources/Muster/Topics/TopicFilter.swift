import EventLog

/// Which response topics a listener wants: a topic such as `/a/b/c`, where a `+` segment matches any
/// one segment and a final `#` matches the rest (zero or more segments), as in MQTT.
public struct TopicFilter: Sendable, Hashable, CustomStringConvertible {
    private let segments: [Substring]
    public let description: String

    /// Parses a filter; throws `.invalidArgument` naming the rule it breaks.
    public init(_ text: String) throws {
        guard text.hasPrefix("/") else {
            throw MusterError(.invalidArgument, "topic \(String(reflecting: text)) must start with /, as in /a/b/c")
        }
        let segments = text.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        for (index, segment) in segments.enumerated() {
            if segment.isEmpty || segment == "." || segment == ".." {
                throw MusterError(
                    .invalidArgument, "topic \(String(reflecting: text)) has an empty, . or .. segment")
            }
            if segment != "+" && segment != "#" && (segment.contains("+") || segment.contains("#")) {
                throw MusterError(
                    .invalidArgument,
                    "topic \(String(reflecting: text)): + and # must be whole segments, not part of \(segment)")
            }
            if segment == "#" && index != segments.count - 1 {
                throw MusterError(.invalidArgument, "topic \(String(reflecting: text)): # must be the last segment")
            }
        }
        self.segments = segments
        description = text
    }

    /// Whether `topic` (a plain `/a/b/c` topic) is one this filter selects.
    public func matches(_ topic: String) -> Bool {
        guard topic.hasPrefix("/") else { return false }
        let parts = topic.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        for (index, segment) in segments.enumerated() {
            if segment == "#" { return true }
            guard index < parts.count else { return false }
            if segment != "+" && segment != parts[index] { return false }
        }
        return parts.count == segments.count
    }
}
