import EventLogTesting
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A test peer counts as started only when it is the process that listens on its port, not merely when something
/// answers there: another test's server may have taken the port first.
struct LoopbackPortTests {
    @Test func theProcessThatListensIsToldFromAnyOther() throws {
        let (socket, port) = try LoopbackPort.bound()
        defer { close(socket) }
        #expect(!LoopbackPort.isListening(port, by: getpid()), "bound, not listening yet")
        #expect(listen(socket, 1) == 0)
        #expect(LoopbackPort.isListening(port, by: getpid()))
        #expect(LoopbackPort.accepts(port))
        // Another process — here the test runner's parent — does not listen there.
        #expect(!LoopbackPort.isListening(port, by: getppid()))
    }

    /// A free port is one the kernel never gives out by itself (below its ephemeral range), so no outgoing
    /// connection of the run can take it between the test choosing it and its peer binding it.
    @Test func aFreePortLiesBelowTheKernelsEphemeralRange() throws {
        let range = try #require(ProcFile.text("/proc/sys/net/ipv4/ip_local_port_range"))
        let first = try #require(range.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) })
        try #require(first > 11_000, "this machine gives out ports from \(first): nothing lies below to choose")
        for _ in 0..<20 {
            let port = try LoopbackPort.free()
            #expect((10_000..<first).contains(port), "port \(port), the ephemeral range starts at \(first)")
            #expect(LoopbackPort.canBind(port))
        }
    }

    /// /proc/net/tcp is read to its end: with hundreds of sockets listening (a full test run's start), a peer's listener
    /// lies far beyond the first page, which is all Foundation's file reading returns of a /proc file.
    @Test func aListenerAmongHundredsIsFound() throws {
        var listeners: [(socket: Int32, port: Int)] = []
        defer { listeners.forEach { close($0.socket) } }
        for _ in 0..<300 {
            let listener = try LoopbackPort.bound()
            listeners.append(listener)
            #expect(listen(listener.socket, 1) == 0)
        }
        let lines = try #require(ProcFile.text("/proc/net/tcp")).split(separator: "\n")
        #expect(lines.count > 300, "every socket of the table, not its first page")
        for listener in stride(from: 0, to: listeners.count, by: 15).map({ listeners[$0] }) {
            #expect(LoopbackPort.isListening(listener.port, by: getpid()), "port \(listener.port)")
        }
    }
}
