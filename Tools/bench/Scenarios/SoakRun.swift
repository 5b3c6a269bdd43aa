import Foundation

/// What one soak measured: the server settled after the warm-up and at the end, the samples of the window between,
/// and what the load did.
struct SoakRun {
    /// The server with no request in flight and no live stream open.
    struct Settled {
        var sample: ProcessSample
        var streams: Int
        /// The server's threads by name (`/proc/PID/task/*/comm`), to tell which pool grew.
        var threadNames: [String: Int]
    }

    var before: Settled
    /// The most threads the server ran before the window (warm-up and settling): pools that start threads on
    /// demand (Dispatch's, the blocking pool's) reach their size there, and may keep one more or less at rest.
    var threadsBeforeWindow: Int
    var after: Settled
    var window: [ProcessSample]
    var counts: SoakLoad.Counts
    var rates: SoakRates

    /// Anonymous resident memory's growth over the window, MB per minute (least squares).
    var anonymousSlope: Double { slope(\.anonymousMB) }
    /// All resident memory's (with the mapped log, which grows with it), MB per minute.
    var residentSlope: Double { slope(\.residentMB) }

    private func slope(_ megabytes: KeyPath<ProcessSample, Double>) -> Double {
        leastSquaresSlope(window.map { (x: $0.at / 60, y: $0[keyPath: megabytes]) })
    }

    private func range(_ megabytes: KeyPath<ProcessSample, Double>) -> (min: Double, max: Double) {
        let values = window.map { $0[keyPath: megabytes] }
        return (values.min() ?? 0, values.max() ?? 0)
    }

    var problems: [String] {
        var problems: [String] = []
        if counts.failures > 0 {
            problems.append("\(counts.failures) requests failed: \(counts.reasons.joined(separator: " | "))")
        }
        if after.sample.descriptors > before.sample.descriptors {
            problems.append("open descriptors grew from \(before.sample.descriptors) to \(after.sample.descriptors)")
        }
        if after.sample.threads > threadsBeforeWindow {
            let grown = after.threadNames.filter { $0.value > before.threadNames[$0.key] ?? 0 }.map {
                "\($0.key) \(before.threadNames[$0.key] ?? 0) → \($0.value)"
            }
            problems.append(
                "threads grew: \(after.sample.threads) at rest after the window, at most \(threadsBeforeWindow) before it "
                    + "(by name, settled before → after: \(grown.sorted().joined(separator: ", ")))")
        }
        if before.streams != 0 {
            problems.append("\(before.streams) live streams still open after the warm-up's clients left")
        }
        if after.streams != 0 { problems.append("\(after.streams) live streams still open after the clients left") }
        if window.count < 2 { problems.append("only \(window.count) samples in the measured window") }
        return problems
    }

    var figures: [Figure] {
        let anonymous = range(\.anonymousMB)
        let resident = range(\.residentMB)
        return [
            Figure(label: "anonymous RSS min", value: anonymous.min, unit: "MB"),
            Figure(label: "anonymous RSS max", value: anonymous.max, unit: "MB"),
            Figure(label: "anonymous RSS slope", value: anonymousSlope, unit: "MB/min"),
            Figure(label: "RSS min", value: resident.min, unit: "MB"),
            Figure(label: "RSS max", value: resident.max, unit: "MB"),
            Figure(label: "RSS slope", value: residentSlope, unit: "MB/min"),
            Figure(label: "descriptors settled before", value: Double(before.sample.descriptors), unit: ""),
            Figure(label: "descriptors settled after", value: Double(after.sample.descriptors), unit: ""),
            Figure(label: "threads settled before", value: Double(before.sample.threads), unit: ""),
            Figure(label: "threads settled after", value: Double(after.sample.threads), unit: ""),
            Figure(label: "threads at most before the window", value: Double(threadsBeforeWindow), unit: ""),
            Figure(label: "live streams open at the end", value: Double(after.streams), unit: ""),
            Figure(label: "live streams opened and dropped", value: Double(counts.done["stream"] ?? 0), unit: ""),
        ]
    }

    func notes(memoryBound: Double, smoke: Bool) -> [String] {
        let descriptors = window.map(\.descriptors)
        let threads = window.map(\.threads)
        let done = counts.done.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        let failed = counts.failed.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        return [
            String(
                format: "window %.0f s, %d samples: anonymous RSS %.1f–%.1f MB, slope %+.3f MB/min (bound %.1f",
                (window.last?.at ?? 0) - (window.first?.at ?? 0), window.count, range(\.anonymousMB).min,
                range(\.anonymousMB).max, anonymousSlope, memoryBound)
                + (smoke ? ", not asserted in smoke); " : "); ")
                + String(
                    format: "RSS %.1f–%.1f MB, slope %+.3f MB/min (the mapped log grows with it)",
                    range(\.residentMB).min, range(\.residentMB).max, residentSlope),
            "under load: descriptors \(descriptors.min() ?? 0)–\(descriptors.max() ?? 0), threads "
                + "\(threads.min() ?? 0)–\(threads.max() ?? 0); settled before/after the window: descriptors "
                + "\(before.sample.descriptors) → \(after.sample.descriptors), threads \(before.sample.threads) → "
                + "\(after.sample.threads) (at most \(threadsBeforeWindow) before the window), live streams \(before.streams) → \(after.streams)",
            "requests answered as expected: \(done); failed \(counts.failures) (\(failed)); not started (512 in flight, or a "
                + "refresh chain's last refresh unanswered) \(counts.skipped)",
        ]
    }
}

extension SoakTokens {
    var figures: [Figure] {
        [
            Figure(label: "token pairs issued", value: Double(issued), unit: ""),
            Figure(label: "token pairs kept", value: Double(expiries), unit: ""),
            Figure(label: "expired pairs not swept", value: Double(expiredLeft), unit: ""),
        ]
    }
}
