extension DeviceSettings {
    /// Reads the `KEY=VALUE` arguments an operator types (`OnInterval=true IntervalCycle=1000
    /// SubscribeTopic=a/b,c/d`), typed as seed 001's settings: booleans `true`/`false`, whole numbers, a comma
    /// list of topics. Keys match the seed's names in any letter case.
    /// - Throws: the first argument that is not `KEY=VALUE`, names an unknown setting (the error lists the known
    ///   ones), repeats a setting or has a value of the wrong form.
    public init(arguments: [String]) throws(SettingsArgumentError) {
        self.init()
        guard !arguments.isEmpty else {
            throw SettingsArgumentError(
                argument: "", message: "no settings given; known: \(Self.keys.joined(separator: ", "))")
        }
        var seen: Set<CodingKeys> = []
        for argument in arguments {
            guard let equals = argument.firstIndex(of: "=") else {
                throw SettingsArgumentError(
                    argument: argument, message: "expected KEY=VALUE, e.g. OnInterval=true or IntervalCycle=1000")
            }
            let name = String(argument[..<equals])
            let value = String(argument[argument.index(after: equals)...])
            guard let key = CodingKeys.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else {
                throw SettingsArgumentError(
                    argument: argument,
                    message: "\"\(name)\" is not a setting; known: \(Self.keys.joined(separator: ", "))")
            }
            guard seen.insert(key).inserted else {
                throw SettingsArgumentError(argument: argument, message: "\(key.rawValue) is given twice")
            }
            try assign(value, to: key, argument: argument)
        }
    }

    private mutating func assign(_ value: String, to key: CodingKeys, argument: String) throws(SettingsArgumentError) {
        func refuse(_ expected: String) -> SettingsArgumentError {
            SettingsArgumentError(argument: argument, message: "\(key.rawValue) must be \(expected), not \"\(value)\"")
        }
        switch key {
        case .subscribeTopic:
            let topics = value.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard topics.allSatisfy(Self.isTopicFilter) else {
                throw refuse("a comma-separated list of topics like a/b,c/# (no empty topic, + and # as whole levels)")
            }
            subscribeTopic = topics
        case .publishTopic:
            guard Self.isTopicName(value) else { throw refuse("a topic like cedalo/iPhone (no + or # wildcards)") }
            publishTopic = value
        case .onIncoming, .onInterval, .intervalOnChange, .onThreshold:
            guard let flag = Self.bool(value) else { throw refuse("true or false") }
            switch key {
            case .onIncoming: onIncoming = flag
            case .onInterval: onInterval = flag
            case .intervalOnChange: intervalOnChange = flag
            default: onThreshold = flag
            }
        case .intervalCycle:
            guard let cycle = Int(value), cycle >= 1 else { throw refuse("a whole number of 1 or more") }
            intervalCycle = cycle
        case .thresholdValue:
            guard let threshold = Double(value), threshold.isFinite else { throw refuse("a number") }
            thresholdValue = threshold
        }
    }

    private static func bool(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "true": true
        case "false": false
        default: nil
        }
    }

    /// A topic to publish to: not empty, no wildcard.
    static func isTopicName(_ topic: String) -> Bool {
        !topic.isEmpty && !topic.contains("+") && !topic.contains("#") && !topic.contains("\0")
    }

    /// A topic to subscribe to: not empty, `+` only as a whole level, `#` only as the whole last level.
    static func isTopicFilter(_ topic: String) -> Bool {
        guard !topic.isEmpty, !topic.contains("\0") else { return false }
        let levels = topic.split(separator: "/", omittingEmptySubsequences: false)
        for (position, level) in levels.enumerated() {
            if level.contains("+"), level != "+" { return false }
            if level.contains("#"), level != "#" || position != levels.count - 1 { return false }
        }
        return true
    }
}
