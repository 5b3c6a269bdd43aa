import EventLogTesting
import Foundation

/// What /proc says about one process at one moment: resident memory, open descriptors, threads.
struct ProcessSample: Sendable {
    /// Seconds since the probe's start.
    var at: Double
    /// Resident memory in total (`VmRSS`), and its anonymous part (`RssAnon`: the heap and stacks, without the
    /// mapped LMDB file, which grows with the log by design), in KiB.
    var residentKiB: Int
    var anonymousKiB: Int
    var descriptors: Int
    var threads: Int

    var residentMB: Double { Double(residentKiB) / 1024 }
    var anonymousMB: Double { Double(anonymousKiB) / 1024 }
}

/// Reads a process's /proc entries (Linux only).
struct ProcessProbe: Sendable {
    let pid: pid_t
    let start = ContinuousClock.now

    func sample() throws -> ProcessSample {
        guard let status = ProcFile.text("/proc/\(pid)/status") else {
            throw BenchError.command("cannot read /proc/\(pid)/status (has the process ended?)")
        }
        func field(_ name: String) throws -> Int {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }),
                let value = line.dropFirst(name.count + 1).split(whereSeparator: \.isWhitespace).first.flatMap({
                    Int($0)
                })
            else { throw BenchError.parse("no \(name) in /proc/\(pid)/status") }
            return value
        }
        let descriptors: Int
        do {
            descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count
        } catch {
            throw BenchError.command("cannot list /proc/\(pid)/fd: \(error)")
        }
        return ProcessSample(
            at: seconds(since: start), residentKiB: try field("VmRSS"), anonymousKiB: try field("RssAnon"),
            descriptors: descriptors, threads: try field("Threads"))
    }

    /// The process's threads by name, as counted in /proc/PID/task/*/comm (empty when unreadable).
    func threadNames() -> [String: Int] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        var names: [String: Int] = [:]
        for task in tasks {
            let name = ProcFile.text("/proc/\(pid)/task/\(task)/comm") ?? "?"
            names[name.trimmingCharacters(in: .whitespacesAndNewlines), default: 0] += 1
        }
        return names
    }
}

/// The least-squares slope of `y` over `x` (per unit of x); 0 with fewer than two distinct x.
func leastSquaresSlope(_ points: [(x: Double, y: Double)]) -> Double {
    guard points.count >= 2 else { return 0 }
    let n = Double(points.count)
    let meanX = points.map(\.x).reduce(0, +) / n
    let meanY = points.map(\.y).reduce(0, +) / n
    let sxx = points.map { ($0.x - meanX) * ($0.x - meanX) }.reduce(0, +)
    guard sxx > 0 else { return 0 }
    return points.map { ($0.x - meanX) * ($0.y - meanY) }.reduce(0, +) / sxx
}
