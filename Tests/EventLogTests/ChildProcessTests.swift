import EventLogTesting
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A child a test starts (a broker, a server, a CLI run) holds its standard input, output and error and nothing else
/// of the test process: a pipe another test reads at the same time, copied into a broker that lives for the whole
/// run, would keep that reader waiting for an end that never comes.
struct ChildProcessTests {
    @Test func aChildHoldsOnlyItsStandardDescriptors() async throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)  // not close-on-exec, as Foundation's `Pipe`
        defer { ends.forEach { close($0) } }
        let child = try ChildProcess("/bin/sleep", ["30"])
        defer {
            child.send(SIGKILL)
            child.reap()
        }
        // What the child's descriptors above 2 are: none is anything of the test's. (Only "none above 2" cannot be
        // asked: posix_spawn returns once the new program runs, and its loader may still hold a library open as 3.)
        let mine = Set(Self.targets(of: getpid()).filter { $0.key > 2 }.values)
        let inherited = Self.targets(of: child.pid).filter { $0.key > 2 && mine.contains($0.value) }
        #expect(inherited.isEmpty, "the child holds \(inherited) of the test process; the test's pipe is \(ends)")
    }

    /// What each open descriptor of `pid` refers to (`pipe:[…]`, `socket:[…]`, a path).
    private static func targets(of pid: pid_t) -> [Int32: String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        return Dictionary(
            uniqueKeysWithValues: names.compactMap { name in
                Int32(name).flatMap { descriptor in target(pid, descriptor).map { (descriptor, $0) } }
            })
    }

    private static func target(_ pid: pid_t, _ descriptor: Int32) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(descriptor)")
    }
}
