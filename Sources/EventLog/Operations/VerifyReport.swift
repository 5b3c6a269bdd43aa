/// What `verify` found. Healthy when `problems` is empty.
public struct VerifyReport: Sendable, Hashable, Codable {
    /// One thing that is wrong, with where it is.
    public struct Problem: Sendable, Hashable, Codable, CustomStringConvertible {
        /// What part of the store: `events`, `streams`, `eventIds`, `chain`, `projection`, `blobs`.
        public var area: String
        /// One line naming what is wrong and where.
        public var message: String
        /// What to do about it; each edge words it (not part of the JSON form, where the command line puts it
        /// into `message`).
        public var remedy: StoreError.Remedy? = nil

        private enum CodingKeys: String, CodingKey { case area, message }

        public var description: String { "\(area): \(message)" + (remedy.map { "; \($0)" } ?? "") }
    }

    /// How one projection compared with a fresh rebuild.
    public struct ProjectionCheck: Sendable, Hashable, Codable {
        public var name: String
        public var mode: ProjectionMode
        /// The rebuild replayed the log up to here (the head, or an async projection's checkpoint).
        public var comparedUpTo: UInt64
        /// Keys that differ between the stored tables and the rebuild (0 when equal or not compared).
        public var differences: Int
        /// False when the projection could not be compared (never built, other version, damaged log).
        public var compared: Bool
    }

    /// Most problems kept in `problems`; `problemCount` counts all.
    public static let problemLimit = 1000

    /// Position of the last event in the snapshot that was checked.
    public var head: UInt64 = 0
    /// Events read.
    public var events: UInt64 = 0
    /// Links of the commit chain recomputed from the events.
    public var chainLinks: UInt64 = 0
    /// The hash of the chain's last link (64 hex digits), what `muster checkpoint` records; nil when the log
    /// has no chain or no events.
    public var headHash: String?
    public var projections: [ProjectionCheck] = []
    /// Blobs whose every chunk was read and checked.
    public var blobs: UInt64 = 0
    /// Chunks in `blobChunks` that belong to no blob: an upload in progress or one that failed.
    public var unreferencedChunks: UInt64 = 0
    /// The first `problemLimit` problems.
    public var problems: [Problem] = []
    /// Number of problems found.
    public var problemCount = 0

    /// True when nothing is wrong.
    public var isHealthy: Bool { problemCount == 0 }

    /// Records a problem in `area`; what the store cannot check itself (the domain's) is added this way too.
    public mutating func add(_ area: String, _ message: String, remedy: StoreError.Remedy? = nil) {
        problemCount += 1
        if problems.count < Self.problemLimit {
            problems.append(Problem(area: area, message: message, remedy: remedy))
        }
    }
}
