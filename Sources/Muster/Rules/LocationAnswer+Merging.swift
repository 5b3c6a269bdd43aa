import MusterWire

extension LocationAnswer {
    /// This answer followed by `other`; a rule that waited for its server hook keeps only its final outcome.
    func merging(_ other: LocationAnswer) -> LocationAnswer {
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
