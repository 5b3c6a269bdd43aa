import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A child process started with `posix_spawn`, no signals blocked or ignored, for tests and benchmarks.
///
/// Not Foundation's `Process`: it passes on the caller's signal mask (a test runner's threads block SIGTERM, so a
/// broker started that way never saw SIGTERM), and its `run()` crashed the whole test process twice in full runs
/// (SIGSEGV in a `memmove` inside `Process.run`, from concurrent CLI runs).
public final class ChildProcess: Sendable {
    public let pid: pid_t

    /// Starts `executable` with `arguments`.
    /// - Parameters:
    ///   - stdin, stdout, stderr: files to read from and write to (created or truncated); nil: /dev/null.
    ///   - stdoutDescriptor: a descriptor (a pipe's write end) for stdout instead of the file.
    ///   - environment: the child's environment; nil: this process's.
    public init(
        _ executable: String, _ arguments: [String], stdin: String? = nil, stdout: String? = nil,
        stdoutDescriptor: Int32? = nil, stderr: String? = nil, environment: [String: String]? = nil
    ) throws {
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
        posix_spawn_file_actions_addopen(&actions, 0, stdin ?? "/dev/null", O_RDONLY, 0)
        if let stdoutDescriptor {
            posix_spawn_file_actions_adddup2(&actions, stdoutDescriptor, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, stdout ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        }
        posix_spawn_file_actions_addopen(&actions, 2, stderr ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // Nothing else of this process: a pipe another test reads (Foundation's are not close-on-exec) would
        // otherwise stay open in a broker for its life, and that reader would wait for an end that never comes.
        guard Self.closeFrom(&actions, 3) == 0 else {
            throw ChildProcessError(description: "cannot start \(executable): posix_spawn_file_actions_addclosefrom_np")
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { envp?.forEach { free($0) } }
        var pid: pid_t = 0
        let rc =
            if envp != nil {
                envp!.withUnsafeMutableBufferPointer {
                    posix_spawn(&pid, executable, &actions, &attributes, argv, $0.baseAddress)
                }
            } else {
                posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
            }
        guard rc == 0 else {
            throw ChildProcessError(description: "cannot start \(executable): \(String(cString: strerror(rc)))")
        }
        self.pid = pid
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc module does not
    /// declare.
    private static let closeFrom: @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32 = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np")
        else { fatalError("glibc 2.34 or later is needed: posix_spawn_file_actions_addclosefrom_np is missing") }
        return unsafeBitCast(
            symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    /// True until the process exited (it is not reaped before `waitForExit()`).
    public var isRunning: Bool {
        var info = siginfo_t()
        let rc = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT)
        return rc == 0 && info._sifields._sigchld.si_pid == 0
    }

    /// Sends `signal`.
    public func send(_ signal: Int32) {
        _ = kill(pid, signal)
    }

    /// Waits here until the process exited, and reaps it (for `deinit`, which cannot await).
    public func reap() {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    /// Waits on a thread of its own (``onOwnThread(_:)``) until the process exited, then reaps it; its wait status.
    @discardableResult
    public func waitForExit() async -> Int32 {
        let pid = pid
        return await onOwnThread {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            return status
        }
    }

    /// The exit code of a wait status, or the signal's number when a signal ended the process (as Foundation's
    /// `terminationStatus` gives them).
    public static func exitCode(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : signal
    }
}

/// Why a child process could not be started.
public struct ChildProcessError: Error, CustomStringConvertible {
    public let description: String
}
