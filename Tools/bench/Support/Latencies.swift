/// Per-operation latencies in nanoseconds, kept whole and sorted once for percentiles.
struct Latencies: Sendable {
    private(set) var nanoseconds: [UInt64] = []
    private var isSorted = true

    mutating func record(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        nanoseconds.append(UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000))
        isSorted = false
    }

    mutating func merge(_ other: Latencies) {
        nanoseconds += other.nanoseconds
        isSorted = false
    }

    var count: Int { nanoseconds.count }

    /// The latency below which `fraction` of the operations completed, in milliseconds.
    mutating func percentile(_ fraction: Double) -> Double {
        guard !nanoseconds.isEmpty else { return 0 }
        if !isSorted {
            nanoseconds.sort()
            isSorted = true
        }
        let index = min(nanoseconds.count - 1, Int((Double(nanoseconds.count) * fraction).rounded(.up)) - 1)
        return Double(nanoseconds[max(0, index)]) / 1e6
    }

    /// The slowest operation, in milliseconds.
    var maximum: Double { Double(nanoseconds.max() ?? 0) / 1e6 }
}
