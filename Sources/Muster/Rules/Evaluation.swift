/// What a location fix or sighting caused: the transitions and each rule's outcome
/// (`{"transitions":[{"area","trigger"}],"outcomes":[{"rule","area","fired","reason"}]}`).
public struct Evaluation: Sendable, Hashable, Encodable {
    public struct Transition: Sendable, Hashable, Encodable {
        public var area: String
        public var trigger: String

        public init(area: String, trigger: String) {
            self.area = area
            self.trigger = trigger
        }
    }

    public struct Outcome: Sendable, Hashable, Encodable {
        public var rule: String
        public var area: String
        public var fired: Bool
        public var reason: String
        /// Inbox message the notification went out as, when one did.
        public var messageId: String?
    }

    /// A geotrigger fence entered or exited, and the notification it gave.
    public struct GeotriggerOutcome: Sendable, Hashable, Encodable {
        public var geotrigger: String
        public var fence: String
        /// `entered` or `exited`.
        public var notificationType: String
        public var fired: Bool
        public var reason: String
        public var message: String?
        public var actions: [String]?
        public var messageId: String?
    }

    public var transitions: [Transition] = []
    public var outcomes: [Outcome] = []
    public var geotriggers: [GeotriggerOutcome] = []
    /// Why a report decided nothing (e.g. a fix too inaccurate), when that is so.
    public var ignored: String?

    public init() {}

    /// The last outcome of a rule, if any.
    public func outcome(_ rule: String) -> Outcome? { outcomes.last { $0.rule == rule } }

    /// This evaluation followed by `other`; a rule that waited for its server hook keeps only its final outcome.
    func merging(_ other: Evaluation) -> Evaluation {
        var merged = self
        merged.transitions += other.transitions
        merged.geotriggers += other.geotriggers
        for outcome in other.outcomes {
            if let i = merged.outcomes.lastIndex(where: {
                $0.rule == outcome.rule && $0.area == outcome.area && $0.reason.hasPrefix("waiting for the server hook")
            }) {
                merged.outcomes[i] = outcome
            } else {
                merged.outcomes.append(outcome)
            }
        }
        return merged
    }
}
