import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A child process started with no signals blocked or ignored.
///
/// Foundation's `Process` passes on the caller's signal mask, and a test runner's threads block SIGTERM and SIGINT:
/// mosquitto started that way never sees SIGTERM and so never saves its persistence file. `posix_spawn` with an
/// empty mask and default dispositions gives it a normal start.
final class BrokerProcess: Sendable {
    let pid: pid_t

    /// Starts `executable` with `arguments`, its standard output and error to /dev/null.
    init(_ executable: String, _ arguments: [String]) throws {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard rc == 0 else {
            throw MQTTBrokerError(description: "cannot start \(executable): \(String(cString: strerror(rc)))")
        }
        self.pid = pid
    }

    /// True until the process exited (it is not reaped before `waitForExit()`).
    var isRunning: Bool {
        var info = siginfo_t()
        let rc = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT)
        return rc == 0 && info._sifields._sigchld.si_pid == 0
    }

    /// Sends `signal`.
    func send(_ signal: Int32) {
        _ = kill(pid, signal)
    }

    /// Waits here until the process exited, and reaps it (for `deinit`, which cannot await).
    func reap() {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    /// Waits on a dispatch thread until the process exited, then reaps it; its wait status.
    @discardableResult
    func waitForExit() async -> Int32 {
        let pid = pid
        return await withCheckedContinuation { (done: CheckedContinuation<Int32, Never>) in
            DispatchQueue.global().async {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                done.resume(returning: status)
            }
        }
    }
}
