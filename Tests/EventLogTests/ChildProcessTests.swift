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
        // posix_spawn returns once the child runs the new program: what it holds now is what it keeps.
        let held = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(child.pid)/fd").compactMap { Int32($0) }
        #expect(held.sorted() == [0, 1, 2], "the child holds \(held.sorted()); the test's pipe is \(ends)")
    }
}
