import Foundation

/// `manifest.json` of a backup directory: what the copied `data.mdb` holds and how to check it.
///
/// Every number is read from the copy itself after copying, so the manifest describes exactly the
/// bytes beside it, however many events were appended while the copy ran.
public struct BackupManifest: Codable, Sendable, Hashable {
    /// The manifest layout this release writes and reads.
    public static let currentFormat = 1
    /// The manifest's file name in a backup directory.
    public static let fileName = "manifest.json"
    /// The LMDB data file's name in data and backup directories.
    public static let dataFileName = "data.mdb"

    /// Where a projection stood in the copy.
    public struct Projection: Codable, Sendable, Hashable {
        public var name: String
        public var mode: ProjectionMode
        /// Version of the code that built the stored tables; nil when never built.
        public var version: UInt32?
        /// Active table generation; nil when never built.
        public var generation: UInt64?
        /// Last applied position.
        public var checkpoint: UInt64
    }

    /// The copied LMDB file.
    public struct DataFile: Codable, Sendable, Hashable {
        public var name: String
        public var size: UInt64
        /// SHA-256 of the file, 64 hex digits.
        public var sha256: String
    }

    /// Layout version of this manifest.
    public var format: Int
    /// The Muster release that wrote the backup.
    public var musterRelease: String
    /// When the backup was taken.
    public var createdAt: Date
    /// The store format (`format.version` in meta) of the copy.
    public var storeFormat: UInt64
    /// Position of the last event in the copy.
    public var head: UInt64
    /// Number of events in the copy.
    public var eventCount: UInt64
    /// The hash of the commit chain's last link in the copy (64 hex digits, see `CommitChain`): a checkpoint of
    /// the log as backed up. Restore recomputes the chain and requires it. Nil in backups of format-1 logs.
    public var headHash: String? = nil
    public var projections: [Projection]
    public var blobs: BlobTotals
    public var dataFile: DataFile
    /// The secret store's files (`secrets/<fingerprint>`), copied beside the data file; nil in backups of
    /// releases before there was one.
    public var secrets: [DataFile]? = nil

    static let encoder = makeEncoder(pretty: true)

    static func makeEncoder(pretty: Bool) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    /// The manifest as one line of JSON with an ISO 8601 `createdAt`, as `--json` prints it.
    public func jsonLine() throws -> String {
        String(decoding: try Self.makeEncoder(pretty: false).encode(self), as: UTF8.self)
    }

    /// Reads and checks the manifest of a backup directory.
    static func read(from directory: URL) throws -> BackupManifest {
        let url = directory.appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw StoreError(
                .notFound, "no \(fileName) in \(directory.path)", remedy: .useBackup)
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let manifest: BackupManifest
        do {
            manifest = try decoder.decode(BackupManifest.self, from: data)
        } catch {
            throw StoreError(
                .corrupt,
                "\(url.path) is not a readable backup manifest (\(error)); the backup is damaged — use another one")
        }
        guard manifest.format <= currentFormat else {
            throw StoreError(
                .newerFormat,
                "\(url.path) has manifest format \(manifest.format), written by a newer Muster (\(manifest.musterRelease)); restore it with that release"
            )
        }
        return manifest
    }

    func write(to directory: URL) throws {
        let url = directory.appendingPathComponent(Self.fileName)
        do {
            try Self.encoder.encode(self).write(to: url, options: .atomic)
        } catch {
            throw StoreError(.io, "cannot write \(url.path): \(error.localizedDescription)")
        }
    }
}
