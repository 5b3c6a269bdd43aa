/// What publishing a location caused: the areas entered or left and the rules that fired or did not.
public struct LocationReport: Sendable, Hashable, Codable {
    /// The area transitions the location caused, e.g. entering a geofence.
    public var transitions: [Transition]
    /// What each rule of those areas decided, with the reason.
    public var outcomes: [Outcome]
    /// The geotrigger fences entered or exited and the notifications they gave.
    public var geotriggers: [GeotriggerNotice]
    /// Why the report decided nothing (a fix too inaccurate, a repeated entry…), when so.
    public var ignored: String?

    /// Creates a report from its parts.
    public init(
        transitions: [Transition] = [], outcomes: [Outcome] = [], geotriggers: [GeotriggerNotice] = [],
        ignored: String? = nil
    ) {
        self.transitions = transitions
        self.outcomes = outcomes
        self.geotriggers = geotriggers
        self.ignored = ignored
    }

    /// A geotrigger fence entered or exited.
    public struct GeotriggerNotice: Sendable, Hashable, Codable {
        public var geotrigger: String
        public var fence: String
        /// `entered` or `exited`.
        public var notificationType: String
        public var fired: Bool
        public var reason: String
        /// The message expression's message and actions, when it fired.
        public var message: String?
        public var actions: [String]?
        /// The inbox message it went out as.
        public var messageId: String?
    }

    /// An area entered or left.
    public struct Transition: Sendable, Hashable, Codable {
        /// The area's id.
        public var area: String
        /// What happened, e.g. `enter` or `exit`.
        public var trigger: String

        /// Creates a transition.
        public init(area: String, trigger: String) {
            self.area = area
            self.trigger = trigger
        }
    }

    /// One rule's decision for one transition.
    public struct Outcome: Sendable, Hashable, Codable {
        /// The rule's id.
        public var rule: String
        /// The area's id.
        public var area: String
        /// Whether the rule's action ran.
        public var fired: Bool
        /// Why it fired or did not (quota, latch, schedule, …).
        public var reason: String?
        /// The inbox message a notification went out as.
        public var messageId: String?

        /// Creates an outcome.
        public init(rule: String, area: String, fired: Bool, reason: String? = nil, messageId: String? = nil) {
            self.rule = rule
            self.area = area
            self.fired = fired
            self.reason = reason
            self.messageId = messageId
        }
    }

    private enum CodingKeys: String, CodingKey {
        case transitions, outcomes, geotriggers, ignored
    }

    /// Decodes the report; a missing list is empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        transitions = try container.decodeIfPresent([Transition].self, forKey: .transitions) ?? []
        outcomes = try container.decodeIfPresent([Outcome].self, forKey: .outcomes) ?? []
        geotriggers = try container.decodeIfPresent([GeotriggerNotice].self, forKey: .geotriggers) ?? []
        ignored = try container.decodeIfPresent(String.self, forKey: .ignored)
    }
}
