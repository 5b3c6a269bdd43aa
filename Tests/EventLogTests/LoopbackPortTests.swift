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
}
