import ArgumentParser
import EventLog
import Foundation
import Migrations
import Muster

/// `--data DIR`, shared by every command that touches a data directory.
struct DataOptions: ParsableArguments {
    @Option(
        name: .long,
        help: "Data directory (env MUSTER_DATA, default ./muster-data); created readable by its owner only (0700).")
    var data: String?

    /// An empty directory (`--data "$DIR"` with `DIR` unset) is bad usage: it would make the working directory a
    /// data directory.
    func validate() throws {
        if data?.isEmpty == true {
            throw ValidationError("--data must not be empty; give a data directory, such as --data ./muster-data")
        }
        if data == nil, ProcessInfo.processInfo.environment["MUSTER_DATA"]?.isEmpty == true {
            throw ValidationError(
                "MUSTER_DATA is set but empty; set it to a data directory, or unset it for ./muster-data")
        }
    }

    /// The data directory as given, or from the environment, or the default.
    var directory: URL {
        let path = data ?? ProcessInfo.processInfo.environment["MUSTER_DATA"] ?? "./muster-data"
        return URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL
    }

    /// `, and this command acts on a data directory only, not on URL where you are logged in`, when the directory
    /// is the default one and a login is stored; nil otherwise.
    private func notTheServerYouAreLoggedInTo() -> String? {
        guard isDefault, let stored = try? SessionFile.load(), let server = stored.server else { return nil }
        return ", and this command acts on a data directory only, not on \(server.absoluteString) where you are "
            + "logged in"
    }

    /// Whether the directory is the default one: neither `--data` nor `MUSTER_DATA` named it.
    var isDefault: Bool { data == nil && ProcessInfo.processInfo.environment["MUSTER_DATA"] == nil }

    /// The configuration of this release: built-in and domain projections, upcasters and migrations.
    static func configuration(allowOlderFormat: Bool = false) -> EventLog.Configuration {
        var configuration = EventLog.Configuration()
        configuration.projections += MusterDomain.projections
        configuration.upcasters = Migrations.upcasters
        configuration.migrations = Migrations.storeMigrations
        configuration.allowOlderFormat = allowOlderFormat
        return configuration
    }

    /// Runs `body` on the log, closed afterwards. A data directory that did not exist is made for it, and removed
    /// again when `body` fails having stored nothing: a refused command leaves no data directory behind at a
    /// mistyped path.
    ///
    /// The default `./muster-data` is not made while a login is stored: whoever logged in to a server and runs a
    /// verb that acts on a data directory only (`append`, `import`) would otherwise write to a new
    /// directory where they stand and believe it went to the server.
    func withLog<T>(creating: Bool, _ body: (EventLog) async throws -> T) async throws -> T {
        let created = creating ? Self.firstMissing(directory) : nil
        if created != nil, let loggedIn = notTheServerYouAreLoggedInTo() {
            throw CommandFailure.invalid(
                "no Muster data directory at \(directory.path)\(loggedIn); pass --data DIR (made if missing) or set "
                    + "MUSTER_DATA")
        }
        let log: EventLog
        do {
            log = try open(mustExist: !creating)
        } catch {
            if let created { try? FileManager.default.removeItem(at: created) }
            throw error
        }
        do {
            let result = try await body(log)
            log.close()
            return result
        } catch {
            let stored = log.head > 0
            log.close()
            if let created, !stored { try? FileManager.default.removeItem(at: created) }
            throw error
        }
    }

    /// The outermost directory of `directory`'s path that does not exist yet; nil when it exists.
    private static func firstMissing(_ directory: URL) -> URL? {
        var missing: URL?
        var url = directory
        while !FileManager.default.fileExists(atPath: url.path), url.path != "/" {
            missing = url
            url = url.deletingLastPathComponent()
        }
        return missing
    }

    /// Opens the log. With `mustExist`, a missing data directory is an error rather than created.
    func open(
        mustExist: Bool = true, allowOlderFormat: Bool = false,
        commitObserver: (@Sendable (EventLog.Commit) -> Void)? = nil
    ) throws -> EventLog {
        let dataFile = directory.appendingPathComponent("data.mdb")
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw CommandFailure.invalid(
                "\(directory.path) is a file, not a data directory; pass --data DIR or set MUSTER_DATA")
        }
        if mustExist && !FileManager.default.fileExists(atPath: dataFile.path) {
            throw CommandFailure.invalid(
                "no Muster data directory at \(directory.path) (no data.mdb)\(notTheServerYouAreLoggedInTo() ?? ""); "
                    + "pass --data DIR or set MUSTER_DATA")
        }
        var configuration = Self.configuration(allowOlderFormat: allowOlderFormat)
        configuration.commitObserver = commitObserver
        let log = try EventLog(directory: directory, configuration: configuration)
        if log.environment.tightenedPermissions {
            // Once: the next open finds the modes tight already.
            FileHandle.standardError.write(
                Data(
                    "muster: tightened permissions of \(directory.path) to 0700 and its files to 0600: it was readable by other users, and a data directory holds password hashes\n"
                        .utf8))
        }
        return log
    }
}
