import Foundation
import PropertyBased
import Testing

@testable import Geo

@Suite struct PresenceDetectorTests {
    static let shop = at(48.86821546, 2.3231598)

    static func detector(radius: Double = 100) -> PresenceDetector<String> {
        var fences = CircleIndex<String>()
        fences.insert(try! Circle(center: shop, radius: radius), id: "shop")
        return PresenceDetector(fences: fences)
    }

    @Test func aFixInsideEntersAndAFixFarOutsideExits() {
        let detector = Self.detector()
        let inside = north(of: Self.shop, by: 50)
        #expect(
            detector.crossings(inside: [], previous: nil, fix: Fix(inside))
                == [FenceCrossing(id: "shop", trigger: .entry)])
        #expect(detector.crossings(inside: ["shop"], previous: inside, fix: Fix(inside)) == [])
        let away = north(of: Self.shop, by: 150)
        #expect(
            detector.crossings(inside: ["shop"], previous: inside, fix: Fix(away))
                == [FenceCrossing(id: "shop", trigger: .exit)])
    }

    @Test func jitterAtTheEdgeDoesNotFlap() {
        let detector = Self.detector()
        var inside: Set<String> = []
        var previous: Coordinate?
        var crossings: [FenceCrossing<String>] = []
        // Fixes wobbling between 95 m and 110 m from the centre of a 100 m fence.
        for metres in [95.0, 110, 98, 112, 96, 109, 101, 114] {
            let point = north(of: Self.shop, by: metres)
            for crossing in detector.crossings(inside: inside, previous: previous, fix: Fix(point)) {
                crossings.append(crossing)
                if crossing.trigger == .entry { inside.insert(crossing.id) } else { inside.remove(crossing.id) }
            }
            previous = point
        }
        #expect(crossings == [FenceCrossing(id: "shop", trigger: .entry)])
    }

    @Test func anInaccurateFixKeepsTheDeviceInside() {
        let detector = Self.detector()
        let point = north(of: Self.shop, by: 160)
        #expect(detector.crossings(inside: ["shop"], previous: nil, fix: Fix(point, accuracy: 80)) == [])
        #expect(
            detector.crossings(inside: ["shop"], previous: nil, fix: Fix(point, accuracy: 40))
                == [FenceCrossing(id: "shop", trigger: .exit)])
    }

    @Test func aFixLessSureThanTheMaximumDecidesNothing() {
        let detector = Self.detector()
        let fix = Fix(Self.shop, accuracy: 5_000)
        #expect(!detector.isUsable(fix))
        #expect(detector.crossings(inside: [], previous: nil, fix: fix) == [])
        #expect(!detector.isUsable(Fix(Self.shop, accuracy: -1)))
    }

    @Test func aJumpOverTheFenceEntersThenExits() {
        let detector = Self.detector(radius: 20)
        let south = north(of: Self.shop, by: -300)
        let northPoint = north(of: Self.shop, by: 300)
        #expect(
            detector.crossings(inside: [], previous: south, fix: Fix(northPoint))
                == [FenceCrossing(id: "shop", trigger: .entry), FenceCrossing(id: "shop", trigger: .exit)])
        let beside = east(of: northPoint, by: 500)
        #expect(detector.crossings(inside: [], previous: east(of: south, by: 500), fix: Fix(beside)) == [])
    }

    @Test func aStepOutOfAFenceExitsItOnceHoweverFarItGoes() {
        let detector = Self.detector()
        let inside = north(of: Self.shop, by: 50)
        // Past radius + margin but within the step's length of the edge, far beyond both, and a relocation.
        for metres in [140.0, 1_500, 2_500] {
            #expect(
                detector.crossings(inside: ["shop"], previous: inside, fix: Fix(north(of: Self.shop, by: metres)))
                    == [FenceCrossing(id: "shop", trigger: .exit)], "\(metres) m north of the centre")
        }
        // Within radius + margin it stays inside, whatever the step's length.
        #expect(
            detector.crossings(
                inside: ["shop"], previous: north(of: Self.shop, by: -90), fix: Fix(north(of: Self.shop, by: 110))
            ) == [])
    }

    @Test func aRelocationInfersNoCrossing() {
        let detector = Self.detector()
        let far = north(of: Self.shop, by: -3_000)
        #expect(detector.crossings(inside: [], previous: far, fix: Fix(north(of: Self.shop, by: 3_000))) == [])
    }

    @Test func aRemovedFenceIsExited() {
        let detector = Self.detector()
        #expect(
            detector.crossings(inside: ["gone"], previous: nil, fix: Fix(north(of: Self.shop, by: 500)))
                == [FenceCrossing(id: "gone", trigger: .exit)])
    }

    @Test func aDeviceInMoreThan64FencesIsFollowedInEachOfThem() throws {
        // 70 fences round one point, 100 m to 790 m; a walk out from the middle leaves them one by one.
        let fences = try (0..<70).map { try Circle(center: Self.shop, radius: 100 + Double($0) * 10) }
        var index = CircleIndex<Int>()
        for (id, fence) in fences.enumerated() { index.insert(fence, id: id) }
        let detector = PresenceDetector(fences: index)
        var inside = Set<Int>()
        var previous: Coordinate?
        for metres in [0.0, 300, 520, 700, 760, 1_000, 405] {
            let fix = Fix(north(of: Self.shop, by: metres))
            let found = detector.crossings(inside: inside, previous: previous, fix: fix)
            #expect(found == Self.bruteForce(fences, inside: inside, previous: previous, fix: fix, margin: 15))
            for crossing in found {
                if crossing.trigger == .entry { inside.insert(crossing.id) } else { inside.remove(crossing.id) }
            }
            previous = fix.coordinate
            if metres == 0 { #expect(inside.count == 70) }
        }
        #expect(inside.count == 39)  // back at 405 m: the fences of 410 m and more
    }

    /// The rules of `PresenceDetector` applied to every fence, the slow way.
    static func bruteForce(
        _ fences: [Circle], inside: Set<Int>, previous: Coordinate?, fix: Fix, margin: Double
    ) -> [FenceCrossing<Int>] {
        var result: [FenceCrossing<Int>] = []
        for (id, fence) in fences.enumerated() {
            let distance = fence.center.distance(to: fix.coordinate)
            if inside.contains(id) {
                if distance > fence.radius + margin { result.append(FenceCrossing(id: id, trigger: .exit)) }
            } else if distance <= fence.radius {
                result.append(FenceCrossing(id: id, trigger: .entry))
            } else if let previous, previous.distance(to: fix.coordinate) > 0,
                previous.distance(to: fix.coordinate) <= 2_000, fence.isCrossed(from: previous, to: fix.coordinate)
            {
                result.append(FenceCrossing(id: id, trigger: .entry))
                result.append(FenceCrossing(id: id, trigger: .exit))
            }
        }
        return result
    }

    @Test func theDetectorAgreesWithApplyingItsRulesToEveryFence() async {
        await propertyCheck(
            input: CircleIndexTests.fences.array(of: 1...40), CircleIndexTests.points.array(of: 2...12),
            Gen.double(in: 0...60)
        ) { fences, walk, accuracy in
            var index = CircleIndex<Int>()
            for (id, fence) in fences.enumerated() { index.insert(fence, id: id) }
            let detector = PresenceDetector(fences: index)
            var inside = Set<Int>()
            var previous: Coordinate?
            for point in walk {
                let fix = Fix(point, accuracy: accuracy)
                let found = detector.crossings(inside: inside, previous: previous, fix: fix)
                let expected = Self.bruteForce(
                    fences, inside: inside, previous: previous, fix: fix, margin: max(15, accuracy))
                #expect(found == expected)
                for crossing in found {
                    if crossing.trigger == .entry { inside.insert(crossing.id) } else { inside.remove(crossing.id) }
                }
                previous = point
            }
        }
    }
}
