/// What a location fix, beacon sighting or reported transition caused: the areas entered or left, what each
/// rule decided and why, and the geotrigger notifications — `{"transitions","outcomes","geotriggers","ignored"}`.
public struct LocationAnswer: Sendable, Hashable, Codable {
    /// The area transitions the report caused, e.g. entering a geofence.
    public var transitions: [Transition]
    /// What each rule of those areas decided, with the reason.
    public var outcomes: [Outcome]
    /// The geotrigger fences entered or exited and the notifications they gave.
    public var geotriggers: [GeotriggerOutcome]
    /// Why the report decided nothing (a fix too inaccurate, a repeated entry…), when so.
    public var ignored: String?

    /// Creates an answer from its parts.
    public init(
        transitions: [Transition] = [], outcomes: [Outcome] = [], geotriggers: [GeotriggerOutcome] = [],
        ignored: String? = nil
    ) {
        self.transitions = transitions
        self.outcomes = outcomes
        self.geotriggers = geotriggers
        self.ignored = ignored
    }

    /// An area entered or left.
    public struct Transition: Sendable, Hashable, Codable {
        /// The area's id.
        public var area: String
        /// What happened: `on_entry` or `on_exit`.
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
        public var reason: String
        /// The inbox message a notification went out as, when one did.
        public var messageId: String?

        /// Creates an outcome.
        public init(rule: String, area: String, fired: Bool, reason: String, messageId: String? = nil) {
            self.rule = rule
            self.area = area
            self.fired = fired
            self.reason = reason
            self.messageId = messageId
        }
    }

    /// A geotrigger fence entered or exited, and the notification it gave.
    public struct GeotriggerOutcome: Sendable, Hashable, Codable {
        /// The geotrigger's id.
        public var geotrigger: String
        /// The fence's id.
        public var fence: String
        /// `entered` or `exited`.
        public var notificationType: String
        /// Whether a notification went out.
        public var fired: Bool
        /// Why it fired or did not.
        public var reason: String
        /// The message expression's message, when it fired.
        public var message: String?
        /// The message expression's actions, when it fired.
        public var actions: [String]?
        /// The inbox message it went out as.
        public var messageId: String?

        /// Creates a geotrigger outcome.
        public init(
            geotrigger: String, fence: String, notificationType: String, fired: Bool, reason: String,
            message: String? = nil, actions: [String]? = nil, messageId: String? = nil
        ) {
            self.geotrigger = geotrigger
            self.fence = fence
            self.notificationType = notificationType
            self.fired = fired
            self.reason = reason
            self.message = message
            self.actions = actions
            self.messageId = messageId
        }
    }

    /// The last outcome of a rule, if any.
    public func outcome(_ rule: String) -> Outcome? { outcomes.last { $0.rule == rule } }

    private enum CodingKeys: String, CodingKey {
        case transitions, outcomes, geotriggers, ignored
    }

    /// Decodes the answer; a missing list is empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        transitions = try container.decodeIfPresent([Transition].self, forKey: .transitions) ?? []
        outcomes = try container.decodeIfPresent([Outcome].self, forKey: .outcomes) ?? []
        geotriggers = try container.decodeIfPresent([GeotriggerOutcome].self, forKey: .geotriggers) ?? []
        ignored = try container.decodeIfPresent(String.self, forKey: .ignored)
    }
}
