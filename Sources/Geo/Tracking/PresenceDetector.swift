/// Turns a device's location fixes into entries and exits of circular fences, with hysteresis
/// so that GPS jitter at a fence's edge does not flap.
///
/// - A device outside a fence **enters** when a fix is inside it (distance ≤ radius).
/// - A device inside **exits** only when a fix is farther than radius + margin, where the margin
///   is the larger of `exitMargin` and the fix's accuracy: a fix that may still be inside keeps
///   the device inside.
/// - A fix less sure than `maximumAccuracy` decides nothing (`isUsable` is false).
/// - A device that jumped over a fence between two fixes (the straight path crosses the circle,
///   both fixes outside) **enters and exits** it, in that order; a jump longer than
///   `maximumJump` is treated as a relocation and infers no crossings.
///
/// The detector keeps no state: the caller passes the fences the device is inside and its
/// previous fix, so the state can live in a projection and survive restarts.
public struct PresenceDetector<ID: Hashable & Sendable & Comparable>: Sendable {
    public var fences: CircleIndex<ID>
    /// Metres beyond the radius a device must be seen before it counts as out.
    public var exitMargin: Double
    /// Fixes with an accuracy above this many metres are ignored.
    public var maximumAccuracy: Double
    /// Path length in metres above which no crossing is inferred between two fixes.
    public var maximumJump: Double

    public init(
        fences: CircleIndex<ID>, exitMargin: Double = 15, maximumAccuracy: Double = 1_000,
        maximumJump: Double = 50_000
    ) {
        self.fences = fences
        self.exitMargin = exitMargin
        self.maximumAccuracy = maximumAccuracy
        self.maximumJump = maximumJump
    }

    /// Whether `fix` is sure enough to decide anything.
    public func isUsable(_ fix: Fix) -> Bool {
        guard let accuracy = fix.accuracy else { return true }
        return accuracy >= 0 && accuracy <= maximumAccuracy
    }

    /// The crossings `fix` makes for a device inside `inside` whose previous fix was `previous`,
    /// ordered by fence id (for a pass-through, entry before exit). Fences of `inside` that the
    /// index no longer holds are exited.
    public func crossings(inside: Set<ID>, previous: Coordinate?, fix: Fix) -> [FenceCrossing<ID>] {
        guard isUsable(fix) else { return [] }
        let point = fix.coordinate
        let margin = max(exitMargin, fix.accuracy ?? 0)
        var candidates = Set(fences.candidates(near: point, within: margin))
        var jump: (from: Coordinate, length: Double)?
        if let previous {
            let length = previous.distance(to: point)
            if length > 0, length <= maximumJump {
                jump = (previous, length)
                candidates.formUnion(fences.candidates(near: previous, within: length))
            }
        }
        candidates.formUnion(inside)
        var result: [FenceCrossing<ID>] = []
        for id in candidates.sorted() {
            guard let circle = fences.circle(for: id) else {
                if inside.contains(id) { result.append(FenceCrossing(id: id, trigger: .exit)) }
                continue
            }
            let distance = circle.center.distance(to: point)
            if inside.contains(id) {
                if distance > circle.radius + margin { result.append(FenceCrossing(id: id, trigger: .exit)) }
            } else if distance <= circle.radius {
                result.append(FenceCrossing(id: id, trigger: .entry))
            } else if let jump, circle.isCrossed(from: jump.from, to: point) {
                result.append(FenceCrossing(id: id, trigger: .entry))
                result.append(FenceCrossing(id: id, trigger: .exit))
            }
        }
        return result
    }
}
