import PropertyBased
import Testing

@testable import Geo

@Suite struct BeaconHandOverTests {
    /// Feeds one scan a second, from `start`, for `seconds` seconds, each hearing every beacon of
    /// `levels` at its level; returns every change of serving beacon in order.
    static func feed(
        _ handOver: inout BeaconHandOver<String>, _ levels: [String: Int], from start: Double = 0, seconds: Int
    ) -> [ServingBeaconChange<String>] {
        var changes: [ServingBeaconChange<String>] = []
        for second in 0..<seconds {
            let scan = levels.map { BeaconSighting($0.key, rssi: $0.value, at: start + Double(second)) }
            if let change = handOver.record(contentsOf: scan) { changes.append(change) }
        }
        return changes
    }

    @Test func aLoneBeaconServesOnceSettled() {
        var handOver = BeaconHandOver<String>()
        #expect(handOver.nearest == .noneInRange)
        #expect(handOver.record("shelf", rssi: -75, at: 0) == nil)
        #expect(handOver.record("shelf", rssi: -75, at: 1) == nil)
        #expect(handOver.nearest == .undetermined)
        #expect(handOver.record("shelf", rssi: -75, at: 2) == ServingBeaconChange(from: nil, to: "shelf"))
        #expect(handOver.nearest == .beacon("shelf"))
        #expect(handOver.nearest.id == "shelf")
    }

    @Test func beaconsHeardInOneScanWarmUpTogether() {
        var oneByOne = BeaconHandOver<String>()
        var byScan = BeaconHandOver<String>()
        for second in 0..<3 {
            let time = Double(second)
            let scan = [BeaconSighting("door", rssi: -70, at: time), BeaconSighting("till", rssi: -67, at: time)]
            for sighting in scan { oneByOne.record(sighting) }
            byScan.record(contentsOf: scan)
        }
        // One by one, the door settled a moment before the till's third reading came in.
        #expect(oneByOne.nearest == .beacon("door"))
        #expect(byScan.nearest == .undetermined)
    }

    @Test func aClearlyCloserBeaconTakesOver() {
        var handOver = BeaconHandOver<String>()
        #expect(Self.feed(&handOver, ["door": -70], seconds: 3) == [ServingBeaconChange(from: nil, to: "door")])
        let changes = Self.feed(&handOver, ["door": -70, "till": -62], from: 3, seconds: 4)
        #expect(changes == [ServingBeaconChange(from: "door", to: "till")])
        #expect(handOver.serving == "till")
        // And back when the device walks back to the door.
        let back = Self.feed(&handOver, ["door": -58, "till": -72], from: 7, seconds: 4)
        #expect(back == [ServingBeaconChange(from: "till", to: "door")])
    }

    @Test(arguments: [-70, -67, -65, -64])
    func aBeaconWithinTheMarginDoesNotTakeOver(other: Int) {
        var handOver = BeaconHandOver<String>()
        _ = Self.feed(&handOver, ["door": -70], seconds: 3)
        #expect(Self.feed(&handOver, ["door": -70, "till": other], from: 3, seconds: 30) == [])
        #expect(handOver.nearest == .beacon("door"))
        #expect(handOver.smoothedRSSI(of: "till") == Double(other))
    }

    @Test func twoBeaconsWithinTheMarginAndNoneServingAreUndetermined() {
        var handOver = BeaconHandOver<String>()
        #expect(Self.feed(&handOver, ["door": -70, "till": -66], seconds: 10) == [])
        #expect(handOver.nearest == .undetermined)
        #expect(handOver.serving == nil)
        #expect(handOver.nearest.id == nil)
        // Walking up to the till makes it clearly closer: now it is triggered.
        let changes = Self.feed(&handOver, ["door": -74, "till": -60], from: 10, seconds: 3)
        #expect(changes == [ServingBeaconChange(from: nil, to: "till")])
    }

    @Test func aSilentBeaconIsDroppedAndHandsOver() {
        var handOver = BeaconHandOver<String>(timeout: 10)
        _ = Self.feed(&handOver, ["door": -56, "till": -64], seconds: 5)
        #expect(handOver.serving == "door")
        // The door beacon's battery dies at second 5; the till is heard on.
        var changes: [ServingBeaconChange<String>] = []
        for second in 5..<20 {
            if let change = handOver.record("till", rssi: -64, at: Double(second)) { changes.append(change) }
            if second <= 14 { #expect(handOver.serving == "door", "still within the timeout at \(second) s") }
        }
        #expect(changes == [ServingBeaconChange(from: "door", to: "till")])
        #expect(handOver.inRange.map(\.id) == ["till"])
        // Nothing heard at all: the till leaves too, with no beacon left to serve.
        #expect(handOver.advance(to: 29) == nil)
        #expect(handOver.advance(to: 30) == ServingBeaconChange(from: "till", to: nil))
        #expect(handOver.nearest == .noneInRange)
        #expect(handOver.inRange.isEmpty)
    }

    @Test func whenTheServingBeaconLeavesTheOthersAreDecidedAfresh() {
        var handOver = BeaconHandOver<String>(timeout: 5)
        _ = Self.feed(&handOver, ["door": -55, "till": -68, "shelf": -66], seconds: 4)
        #expect(handOver.serving == "door")
        // Without the door, till and shelf are within the margin of each other: undetermined.
        let changes = Self.feed(&handOver, ["till": -68, "shelf": -66], from: 4, seconds: 6)
        #expect(changes == [ServingBeaconChange(from: "door", to: nil)])
        #expect(handOver.nearest == .undetermined)
    }

    @Test func aSingleOutlierDoesNotSwitch() {
        var handOver = BeaconHandOver<String>()
        _ = Self.feed(&handOver, ["door": -66, "till": -74], seconds: 5)
        #expect(handOver.serving == "door")
        // One reflection makes the till look 20 dB stronger for a single reading.
        #expect(handOver.record("till", rssi: -54, at: 5) == nil)
        #expect(handOver.smoothedRSSI(of: "till") == -74)
        // Even two outliers in five readings do not.
        #expect(handOver.record("till", rssi: -50, at: 6) == nil)
        #expect(Self.feed(&handOver, ["door": -66, "till": -74], from: 7, seconds: 10) == [])
        #expect(handOver.serving == "door")
    }

    @Test func aBeaconJustHeardOnceCannotServe() {
        var handOver = BeaconHandOver<String>()
        _ = Self.feed(&handOver, ["door": -70], seconds: 5)
        #expect(handOver.record("street", rssi: -40, at: 5) == nil)
        #expect(handOver.serving == "door")
        let street = handOver.inRange.first { $0.id == "street" }
        #expect(street?.isSettled == false)
        #expect(street?.samples == 1)
    }

    @Test func readingsOlderThanTheWindowNoLongerCount() {
        var handOver = BeaconHandOver<String>(sampleWindow: 5)
        _ = Self.feed(&handOver, ["door": -80], seconds: 3)
        // Heard again 8 s later: the old readings are out of its window, the new level counts alone.
        #expect(handOver.record("door", rssi: -60, at: 10) == nil)
        #expect(handOver.smoothedRSSI(of: "door") == -60)
        #expect(handOver.inRange.first?.samples == 1)
        // Heard again after more than the timeout: it left first, and comes back warming up.
        #expect(handOver.record("door", rssi: -60, at: 21) == ServingBeaconChange(from: "door", to: nil))
        #expect(handOver.nearest == .undetermined)
    }

    @Test func theVectorInRangeListsEveryBeaconStrongestFirst() {
        var handOver = BeaconHandOver<String>(sampleCount: 4, minimumSightings: 2)
        for (time, rssi) in [(0.0, -70), (1, -72), (2, -60), (3, -71)] { handOver.record("door", rssi: rssi, at: time) }
        handOver.record("till", rssi: -65, at: 3)
        handOver.record("shelf", rssi: -65, at: 3.5)
        let vector = handOver.inRange
        #expect(vector.map(\.id) == ["shelf", "till", "door"])
        #expect(
            vector.last
                == BeaconInRange(
                    id: "door", smoothedRSSI: -70.5, lastRSSI: -71, lastSeen: 3, samples: 4, isSettled: true))
        #expect(vector.first?.isSettled == false)
    }

    @Test func aReadingOfZeroIsNoReading() {
        var handOver = BeaconHandOver<String>(minimumSightings: 1)
        #expect(handOver.record("door", rssi: 0, at: 0) == nil)
        #expect(handOver.inRange.isEmpty)
        #expect(handOver.now == 0)
        #expect(handOver.record("door", rssi: -70, at: 1) == ServingBeaconChange(from: nil, to: "door"))
    }

    @Test func anEarlierSightingDoesNotMoveTheTimeBack() {
        var handOver = BeaconHandOver<String>(minimumSightings: 1)
        handOver.record("door", rssi: -70, at: 10)
        handOver.record("door", rssi: -90, at: 9)
        #expect(handOver.now == 10)
        #expect(handOver.inRange.first?.lastRSSI == -70)
        #expect(handOver.inRange.first?.lastSeen == 10)
    }

    // MARK: Properties

    /// RSSI noise around a level, in dB, one value per second.
    static let noise = Gen.int(in: -10...10).array(of: 20...60)

    @Test func aBeaconStrongerByMoreThanTheMarginWinsAfterWarmUp() async {
        await propertyCheck(
            input: Gen.int(in: -95 ... -45), Gen.int(in: 7...30), Gen.int(in: 0...8), Gen.int(in: 0...1)
        ) { weak, gap, head, strongFirst in
            var handOver = BeaconHandOver<Int>()
            let (first, second) = strongFirst == 1 ? (2, 1) : (1, 2)
            let level = [1: weak, 2: weak + gap]
            var time = 0.0
            for _ in 0..<head {
                handOver.record(first, rssi: level[first]!, at: time)
                time += 1
            }
            for _ in 0..<handOver.minimumSightings {
                handOver.record(contentsOf: [
                    BeaconSighting(first, rssi: level[first]!, at: time),
                    BeaconSighting(second, rssi: level[second]!, at: time),
                ])
                time += 1
            }
            #expect(handOver.nearest == .beacon(2))
        }
    }

    @Test func identicalStreamsNeverTriggerEither() async {
        await propertyCheck(input: Gen.int(in: -85 ... -50), Self.noise) { level, noise in
            var handOver = BeaconHandOver<String>()
            for (second, delta) in noise.enumerated() {
                let time = Double(second)
                let scan = ["door", "till"].map { BeaconSighting($0, rssi: level + delta, at: time) }
                #expect(handOver.record(contentsOf: scan) == nil)
                #expect(handOver.nearest == .undetermined)
            }
        }
    }

    @Test func aBeaconJoiningWithTheSameStreamNeverTakesOver() async {
        // Noise spanning less than the margin: during the newcomer's warm-up its median is over
        // fewer readings than the serving beacon's, so a wider spread could differ by more.
        let narrow = Gen.int(in: -2...2).array(of: 20...60)
        await propertyCheck(input: Gen.int(in: -85 ... -50), narrow, Gen.int(in: 3...10)) { level, noise, head in
            var handOver = BeaconHandOver<String>()
            var changes: [ServingBeaconChange<String>] = []
            for (second, delta) in noise.enumerated() {
                let time = Double(second)
                if let change = handOver.record("door", rssi: level + delta, at: time) { changes.append(change) }
                if second >= head, let change = handOver.record("till", rssi: level + delta, at: time) {
                    changes.append(change)
                }
            }
            #expect(changes == [ServingBeaconChange(from: nil, to: "door")])
        }
    }

    @Test func theDecisionAlwaysFollowsTheRules() async {
        let beacons = Gen.int(in: 0...2).array(of: 40...120)
        let levels = Gen.int(in: -100 ... -40).array(of: 40...120)
        await propertyCheck(input: beacons, levels) { beacons, levels in
            var handOver = BeaconHandOver<Int>(timeout: 4)
            for (n, (beacon, rssi)) in zip(beacons, levels).enumerated() {
                let time = Double(n) / 2
                let served = handOver.inRange.first { $0.id == handOver.serving }
                let change = handOver.record(beacon, rssi: rssi, at: time)
                let margin = handOver.margin
                let settled = handOver.inRange.filter(\.isSettled)
                if let serving = handOver.serving {
                    // No settled beacon is clearly closer than the serving one.
                    let level = handOver.smoothedRSSI(of: serving)!
                    #expect(settled.allSatisfy { $0.id == serving || $0.smoothedRSSI <= level + margin })
                } else {
                    // Undetermined: none settled, or the two best within the margin.
                    #expect(settled.count != 1)
                    if settled.count >= 2 { #expect(settled[0].smoothedRSSI <= settled[1].smoothedRSSI + margin) }
                }
                // A take-over from a beacon still in range was by more than the margin.
                if let change, let from = change.from, let to = change.to, let served,
                    time - served.lastSeen <= handOver.timeout
                {
                    #expect(from == served.id)
                    #expect(handOver.smoothedRSSI(of: to)! > handOver.smoothedRSSI(of: from)! + margin)
                }
            }
        }
    }
}
