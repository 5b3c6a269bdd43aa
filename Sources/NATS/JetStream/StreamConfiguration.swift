import CNATS
import Foundation

/// The settings of a JetStream stream that Muster chooses; JetStream's defaults hold for the rest (limits retention,
/// no limits, discard old).
public struct StreamConfiguration: Sendable, Hashable {
    /// The stream's name: letters, digits, `-` and `_` (no `.`, `*`, `>` or spaces).
    public var name: String
    /// The subjects whose messages it stores (wildcards allowed: `muster.acme.>`).
    public var subjects: [String]
    /// How many servers keep a copy: 1, or 3 for a stream that survives one server's loss (at most 5).
    public var replicas: Int
    /// Where the messages are kept.
    public var storage: StreamStorage
    /// How long a publish's message ID is remembered, so that a publish sent again with the same ID is acknowledged
    /// as a duplicate and not stored twice.
    public var duplicateWindow: Duration
    /// Whether any replica, not only the leader, may answer "get message" requests (NATS 2.9+).
    public var allowDirect: Bool

    /// A configuration: file storage, one replica, a two-minute duplicate window, no direct get.
    public init(
        name: String, subjects: [String], replicas: Int = 1, storage: StreamStorage = .file,
        duplicateWindow: Duration = .seconds(120), allowDirect: Bool = false
    ) {
        self.name = name
        self.subjects = subjects
        self.replicas = replicas
        self.storage = storage
        self.duplicateWindow = duplicateWindow
        self.allowDirect = allowDirect
    }

    /// Reads the settings back from libnats' configuration (of a stream's info).
    init(_ config: jsStreamConfig) {
        name = config.Name.map { String(cString: $0) } ?? ""
        subjects = (0..<Int(config.SubjectsLen)).compactMap { config.Subjects[$0].map { String(cString: $0) } }
        replicas = Int(config.Replicas)
        storage = config.Storage == js_MemoryStorage ? .memory : .file
        duplicateWindow = .nanoseconds(config.Duplicates)
        allowDirect = config.AllowDirect
    }

    /// Runs `body` with libnats' form of this configuration, whose strings live until `body` returns.
    func withCConfiguration<T>(_ body: (inout jsStreamConfig) throws -> T) rethrows -> T {
        let cName = strdup(name)
        var cSubjects = subjects.map { UnsafePointer(strdup($0)) }
        defer {
            free(cName)
            cSubjects.forEach { free(UnsafeMutablePointer(mutating: $0)) }
        }
        var config = jsStreamConfig()
        jsStreamConfig_Init(&config)
        config.Name = UnsafePointer(cName)
        config.Replicas = Int64(replicas)
        config.Storage = storage == .memory ? js_MemoryStorage : js_FileStorage
        config.Duplicates = duplicateWindow.nanoseconds
        config.AllowDirect = allowDirect
        return try cSubjects.withUnsafeMutableBufferPointer { subjects in
            config.Subjects = subjects.baseAddress
            config.SubjectsLen = Int32(subjects.count)
            return try body(&config)
        }
    }
}

/// Where a stream keeps its messages.
public enum StreamStorage: Sendable, Hashable {
    /// On disk, in each server's JetStream store directory: survives restarts.
    case file
    /// In memory: lost when a server restarts (its copy comes back from the other replicas).
    case memory
}
