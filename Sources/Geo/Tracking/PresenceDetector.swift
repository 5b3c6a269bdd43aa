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
///
/// Per fix it asks the grid for the fences near the fix (and, after a move, near the path),
/// decides most of them with a flat-Earth estimate and computes the haversine distance only for
/// fences whose edge is within a few per cent of the fix. It works on slot numbers; the generic
/// ids are looked up only for the fences the device is in and the crossings found.
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
        maximumJump: Double = 2_000
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
    @_specialize(exported:true,where ID == String)
    @_specialize(exported:true,where ID == Int)
    public func crossings(inside: Set<ID>, previous: Coordinate?, fix: Fix) -> [FenceCrossing<ID>] {
        guard isUsable(fix) else { return [] }
        // The fences the device is in, by id. Only the candidates near the fix are looked for among them (by comparing
        // ids: they are few), and only those of them the visit does not decide are looked up in the index by id —
        // hashing every one into the index's table of all fences, on every fix, was a third of the detector's time
        // where fences are dense, and comparing every candidate with each of them another third.
        let insideIDs = Array(inside)
        let point = fix.coordinate
        let here = PointTrig(point)
        let margin = max(exitMargin, fix.accuracy ?? 0)
        var jump: (from: Coordinate, length: Double)?
        if let previous {
            let length = previous.distance(to: point)
            if length > 0, length <= maximumJump { jump = (previous, length) }
        }
        // One query covers the fix and, after a move, the whole path: the circle around the path's
        // midpoint reaching both ends. Not the exit margin: a fence the device is in that the query
        // does not return is decided below by its distance, and the margin (as large as the fix's
        // accuracy) would only widen the query.
        var center = point
        var reach = 0.0
        if let jump {
            center =
                (try? Coordinate(
                    latitude: (jump.from.latitude + point.latitude) / 2,
                    longitude: Self.midLongitude(jump.from.longitude, point.longitude))) ?? point
            // The halfway point is within half the path (to 1 %) of both ends, except near a pole.
            reach =
                abs(center.latitude) < 80
                ? jump.length * 0.505 + 1
                : max(center.distance(to: point), center.distance(to: jump.from))
        }
        // What the visit finds goes through `found`, passed in and out, not captured by the closure.
        var found = Found(crossings: [], inside: insideIDs.count)
        // Beyond this band around its circle a fence decides nothing in the visit: if the device is in it, the pass
        // after the visit exits it, as one the grid did not return.
        let band = max(margin, jump?.length ?? 0)
        fences.visitCandidates(near: center, within: reach, into: &found) { found, entry in
            guard fences.isWithin(entry, entry.radius + band, of: here) else { return }
            let id = fences.ids[Int(entry.slot)]!
            if let i = insideIDs.firstIndex(of: id) {
                found.saw(i)
                if !fences.isWithin(entry, entry.radius + margin, of: here) {
                    found.crossings.append(FenceCrossing(id: id, trigger: .exit))
                }
            } else if fences.isWithin(entry, entry.radius, of: here) {
                found.crossings.append(FenceCrossing(id: id, trigger: .entry))
            } else if let jump, fences.isWithin(entry, entry.radius + jump.length, of: here),
                fences.fences[Int(entry.slot)].circle.isCrossed(from: jump.from, to: point)
            {
                found.crossings.append(FenceCrossing(id: id, trigger: .entry))
                found.crossings.append(FenceCrossing(id: id, trigger: .exit))
            }
        }
        var result = found.crossings
        // Fences the device is in that the visit did not decide: the fix is far from them, or they are gone.
        for (i, id) in insideIDs.enumerated() where !found.sawInside(i) {
            guard let slot = fences.slot(of: id) else {
                result.append(FenceCrossing(id: id, trigger: .exit))
                continue
            }
            let fence = fences.fences[Int(slot)]
            if fence.distance(to: here) > fence.radius + margin {
                result.append(FenceCrossing(id: id, trigger: .exit))
            }
        }
        guard result.count > 1 else { return result }
        // By id; a pass-through's entry stays before its exit (stable sort).
        return result.enumerated().sorted { ($0.element.id, $0.offset) < ($1.element.id, $1.offset) }.map(\.element)
    }

    /// The crossings found so far, and which of the fences the device is in the grid returned (a bit each for the
    /// first 64, a list beyond: no allocation for a device in few fences).
    private struct Found {
        var crossings: [FenceCrossing<ID>]
        var seen: UInt64 = 0
        var seenBeyond: [Bool]

        init(crossings: [FenceCrossing<ID>], inside count: Int) {
            self.crossings = crossings
            seenBeyond = count > 64 ? [Bool](repeating: false, count: count - 64) : []
        }

        mutating func saw(_ i: Int) {
            if i < 64 { seen |= 1 << UInt64(i) } else { seenBeyond[i - 64] = true }
        }

        func sawInside(_ i: Int) -> Bool { i < 64 ? seen & (1 << UInt64(i)) != 0 : seenBeyond[i - 64] }
    }

    /// The longitude halfway between two, the short way round.
    static func midLongitude(_ a: Double, _ b: Double) -> Double {
        var difference = b - a
        if difference > 180 { difference -= 360 } else if difference < -180 { difference += 360 }
        var middle = a + difference / 2
        if middle > 180 { middle -= 360 } else if middle < -180 { middle += 360 }
        return middle
    }
}
