import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Brokers outliving the run that started them.
///
/// A broker stops with `stop()` or, at the latest, when its `MQTTBroker` is released. A test run killed from outside
/// (a timeout, an interrupted `swift test`) runs neither, and its brokers went on listening. Each broker's directory
/// names the process that owns it (`owner`) and the broker's own process (`pid`); a new broker first stops those whose
/// owner is gone, and removes their files.
extension MQTTBroker {
    static let directoryPrefix = "mosquitto-"

    /// Records this process as the owner of the broker in `directory`, started as `pid`.
    static func recordOwner(of directory: URL, brokerPID: pid_t) throws {
        try "\(getpid())\n".write(to: directory.appendingPathComponent("owner"), atomically: true, encoding: .utf8)
        try "\(brokerPID)\n".write(to: directory.appendingPathComponent("pid"), atomically: true, encoding: .utf8)
    }

    /// Stops the brokers, and removes the directories, of runs that no longer exist.
    static func stopOrphans() {
        let temporary = FileManager.default.temporaryDirectory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        for name in names where name.hasPrefix(directoryPrefix) {
            let directory = temporary.appendingPathComponent(name, isDirectory: true)
            guard let owner = processID(in: directory, "owner"), !isAlive(owner) else { continue }
            if let broker = processID(in: directory, "pid"), isMosquitto(broker, configuredIn: directory) {
                _ = Glibc.kill(broker, SIGKILL)
            }
            try? FileManager.default.removeItem(at: directory)
        }
    }

    private static func processID(in directory: URL, _ file: String) -> pid_t? {
        let text = try? String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
        return text.flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    private static func isAlive(_ pid: pid_t) -> Bool {
        Glibc.kill(pid, 0) == 0 || errno == EPERM
    }

    /// True when `pid` is still a mosquitto started with this directory's configuration (not a reused process id).
    private static func isMosquitto(_ pid: pid_t, configuredIn directory: URL) -> Bool {
        guard let commandLine = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline")) else {
            return false
        }
        let arguments = commandLine.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        return arguments.first == "/usr/sbin/mosquitto" && arguments.contains { $0.hasPrefix(directory.path) }
    }
}
