/// The `/a/b/c` topic form of `responseTopic`.
public enum ResponseTopic {
    /// Whether `topic` starts with `/` and has only non-empty, space-free segments, none of them `.`
    /// or `..` (which read as path steps, so `/a/../b` would look like `/b` to one reader and not another), and no
    /// `+` or `#`: MQTT's wildcards filter subscriptions, and a topic with one cannot be published on (the MQTT
    /// bridge publishes responses on their topic).
    public static func isValid(_ topic: String) -> Bool {
        guard topic.hasPrefix("/"), !topic.contains("+"), !topic.contains("#") else { return false }
        let segments = topic.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        return segments.allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." && !$0.contains(where: \.isWhitespace) }
    }
}
