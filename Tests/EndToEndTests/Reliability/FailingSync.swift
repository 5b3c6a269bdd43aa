import EventLogTesting
import Foundation
import Testing

/// A shared library that makes `fsync` and `fdatasync` fail with EIO while a trigger file exists, preloaded into a
/// `muster` process (`LD_PRELOAD`): LMDB's durable commit then fails as it does on a failing disk. While a second
/// trigger exists, writes into the meta pages of `data.mdb` (the first two pages) fail with EIO too: LMDB then marks
/// the environment failed (`MDB_PANIC`) and refuses every later transaction of the process. Built by the test with
/// the C compiler, in a temporary directory.
struct FailingSync {
    let directory: TemporaryDirectory
    /// While this file exists, every sync of the process fails with EIO.
    var trigger: URL { directory.url.appendingPathComponent("fail-sync") }
    /// While this file exists, every write into the meta pages of `data.mdb` fails with EIO.
    var metaTrigger: URL { directory.url.appendingPathComponent("fail-meta") }
    var library: URL { directory.url.appendingPathComponent("failing-sync.so") }

    static let source = #"""
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <errno.h>
        #include <limits.h>
        #include <stdio.h>
        #include <stdlib.h>
        #include <string.h>
        #include <unistd.h>

        static int failing(void) {
            const char *trigger = getenv("MUSTER_TEST_FAIL_SYNC");
            return trigger != NULL && access(trigger, F_OK) == 0;
        }

        int fdatasync(int fd) {
            if (failing()) { errno = EIO; return -1; }
            int (*real)(int) = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
            return real(fd);
        }

        int fsync(int fd) {
            if (failing()) { errno = EIO; return -1; }
            int (*real)(int) = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
            return real(fd);
        }

        /* A write at `offset` of `fd` lands in a meta page of data.mdb while the meta trigger exists. */
        static int metaFailing(int fd, off_t offset) {
            const char *trigger = getenv("MUSTER_TEST_FAIL_META");
            if (trigger == NULL || access(trigger, F_OK) != 0 || offset >= 2 * sysconf(_SC_PAGESIZE)) return 0;
            char link[64], path[PATH_MAX];
            snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
            ssize_t length = readlink(link, path, sizeof path - 1);
            if (length < 8) return 0;
            path[length] = 0;
            return strcmp(path + length - 8, "data.mdb") == 0;
        }

        ssize_t pwrite(int fd, const void *buffer, size_t count, off_t offset) {
            if (metaFailing(fd, offset)) { errno = EIO; return -1; }
            ssize_t (*real)(int, const void *, size_t, off_t) = dlsym(RTLD_NEXT, "pwrite");
            return real(fd, buffer, count, offset);
        }

        ssize_t pwrite64(int fd, const void *buffer, size_t count, off64_t offset) {
            if (metaFailing(fd, offset)) { errno = EIO; return -1; }
            ssize_t (*real)(int, const void *, size_t, off64_t) = dlsym(RTLD_NEXT, "pwrite64");
            return real(fd, buffer, count, offset);
        }
        """#

    /// Compiles the library; fails the test, saying why, when there is no C compiler.
    init() async throws {
        directory = try TemporaryDirectory("failing-sync")
        let compiler = "/usr/bin/cc"
        try #require(FileManager.default.isExecutableFile(atPath: compiler), "\(compiler) is needed to build the shim")
        let source = directory.url.appendingPathComponent("failing-sync.c")
        try Data(Self.source.utf8).write(to: source)
        let log = directory.url.appendingPathComponent("cc.log")
        let cc = try ChildProcess(
            compiler, ["-shared", "-fPIC", "-O1", "-o", library.path, source.path, "-ldl"], stdout: log.path,
            stderr: log.path)
        let status = ChildProcess.exitCode(await cc.waitForExit())
        try #require(status == 0, "cc failed: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
    }

    /// The environment of a process whose syncs fail while `trigger` exists.
    var environment: [String: String] {
        ProcessInfo.processInfo.environment.merging(
            [
                "LD_PRELOAD": library.path, "MUSTER_TEST_FAIL_SYNC": trigger.path,
                "MUSTER_TEST_FAIL_META": metaTrigger.path,
            ]
        ) { _, preload in preload }
    }

    /// From now on every sync fails.
    func fail() throws { try Data().write(to: trigger) }

    /// From now on writes into the meta pages of `data.mdb` fail (syncs as before).
    func failMetaWrites() throws { try Data().write(to: metaTrigger) }

    /// From now on syncs reach the disk again.
    func heal() throws { try FileManager.default.removeItem(at: trigger) }

    func remove() { directory.remove() }
}
