import Crypto
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Secrets that must never enter the log (it is immutable and copied into every backup and audit): one file per
/// secret in the data directory's `secrets/`, named by the SHA-256 of its bytes, readable only by the owner.
///
/// The log records the fingerprint; the bytes stay here, so removing the file erases the secret while every
/// event that used it stays as it was. Backups copy the directory beside the data file.
public struct SecretStore: Sendable {
    /// The directory's name inside a data directory (and a backup).
    public static let directoryName = "secrets"

    public let directory: URL

    public init(directory: URL) { self.directory = directory }

    /// The SHA-256 of `secret` as 64 hex digits: what the log may record of it.
    public static func fingerprint(of secret: [UInt8]) -> String {
        SHA256.hash(data: secret).map { String(format: "%02x", $0) }.joined()
    }

    /// Keeps `secret` (mode 0600, written to a temporary file and renamed, so a crash leaves the old state or the
    /// new one) and returns its fingerprint. Storing the same bytes again changes nothing.
    @discardableResult
    public func store(_ secret: [UInt8]) throws -> String {
        let fingerprint = Self.fingerprint(of: secret)
        let url = file(fingerprint)
        if FileManager.default.fileExists(atPath: url.path) { return fingerprint }
        try createDirectory()
        let temporary = directory.appendingPathComponent(".\(fingerprint).\(UUID().uuidString.prefix(8))")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else {
            throw StoreError(.io, "cannot create \(temporary.path): \(String(cString: strerror(errno)))")
        }
        let written = secret.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == secret.count, synced, rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw StoreError(.io, "cannot write a secret into \(directory.path): \(reason)")
        }
        return fingerprint
    }

    /// The secret with this fingerprint; nil when there is none (removed, or never stored here).
    public func secret(_ fingerprint: String) throws -> [UInt8]? {
        guard Self.isFingerprint(fingerprint) else { return nil }
        guard let data = FileManager.default.contents(atPath: file(fingerprint).path) else { return nil }
        return Array(data)
    }

    /// Erases the secret with this fingerprint; nothing when there is none.
    public func remove(_ fingerprint: String) throws {
        guard Self.isFingerprint(fingerprint) else { return }
        let path = file(fingerprint).path
        guard unlink(path) == 0 || errno == ENOENT else {
            throw StoreError(.io, "cannot remove \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// The fingerprints of every secret kept, sorted.
    public func fingerprints() throws -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter(Self.isFingerprint).sorted()
    }

    private func file(_ fingerprint: String) -> URL { directory.appendingPathComponent(fingerprint) }

    private func createDirectory() throws {
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        } catch CocoaError.fileWriteFileExists {
            return
        } catch {
            if FileManager.default.fileExists(atPath: directory.path) { return }
            throw StoreError(.io, "cannot create \(directory.path): \(error.localizedDescription)")
        }
    }

    static func isFingerprint(_ name: String) -> Bool {
        name.utf8.count == 64 && name.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}

extension EventLog {
    /// The data directory's secrets (push credentials), kept beside the log and never in it.
    public var secrets: SecretStore {
        SecretStore(directory: directory.appendingPathComponent(SecretStore.directoryName))
    }
}
