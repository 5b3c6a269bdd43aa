import Foundation

/// CPU time used so far — this process's threads, and the children it has waited for (`wrk`, once it exited) —
/// in seconds: what a route costs per request, beside how many requests it answered.
struct CPUTime {
    var process: Double
    var children: Double

    static func now() -> CPUTime {
        func seconds(_ who: Int32) -> Double {
            var usage = rusage()
            getrusage(__rusage_who_t(who), &usage)
            func value(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
            return value(usage.ru_utime) + value(usage.ru_stime)
        }
        return CPUTime(process: seconds(RUSAGE_SELF.rawValue), children: seconds(RUSAGE_CHILDREN.rawValue))
    }

    static func - (later: CPUTime, earlier: CPUTime) -> CPUTime {
        CPUTime(process: later.process - earlier.process, children: later.children - earlier.children)
    }
}
