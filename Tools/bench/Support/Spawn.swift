import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Starting the benchmark's peers and servers: posix_spawn with stdin on /dev/null, stdout and stderr on the
/// descriptors given, `closing` closed in the child, an empty signal mask and default handlers (the spawning thread
/// may block signals — pool threads do — and a child must still get SIGTERM, pgbench its SIGALRM), this process's
/// environment. Not Foundation's `Process` (EventLogTesting.ChildProcess says why).
enum Spawn {
    /// Starts `arguments[0]`; its pid.
    static func start(_ arguments: [String], stdout: Int32, stderr: Int32, closing: [Int32] = []) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        for descriptor in closing { posix_spawn_file_actions_addclose(&actions, descriptor) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = arguments.map { strdup($0) } + [nil]
        let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + environment).forEach { free($0) } }
        var pid = pid_t()
        let rc = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, environment)
        guard rc == 0 else {
            throw BenchError.command("cannot start \(arguments[0]): \(String(cString: strerror(rc)))")
        }
        return pid
    }
}
