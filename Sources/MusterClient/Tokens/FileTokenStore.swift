import Foundation
import MusterWire

/// Keeps tokens in a JSON file readable by its owner only (mode 0600), e.g. for the `muster` command line.
///
/// Saving writes a new file beside the old one and renames it over, so a crash leaves either the old tokens
/// or the new ones, and the tokens are never readable by others, not even for a moment.
public struct FileTokenStore: TokenStore {
    /// The file.
    public let url: URL

    /// A store in the file at `url`; its folder is created (mode 0700) on the first save when missing.
    public init(url: URL) {
        self.url = url
    }

    /// The tokens in the file; nil when there is no file.
    public func load() throws -> AuthTokens? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw failure("could not read \(url.path): \(error.localizedDescription)")
        }
        do {
            return try MusterJSON.decoder().decode(AuthTokens.self, from: data)
        } catch {
            throw failure("\(url.path) is not a Muster token file; delete it and log in again")
        }
    }

    /// Replaces the file with `tokens`, mode 0600.
    public func save(_ tokens: AuthTokens) throws {
        let data: Data
        do {
            data = try MusterJSON.encoder().encode(tokens)
        } catch {
            throw failure("could not encode the tokens: \(error)")
        }
        let folder = url.deletingLastPathComponent()
        if !FileManager.default.fileExists(atPath: folder.path) {
            do {
                try FileManager.default.createDirectory(
                    at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw failure("could not create \(folder.path): \(error.localizedDescription)")
            }
        }
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp").path
        // Created with 0600 rather than chmod-ed afterwards: the tokens are never readable by others.
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("could not create \(temporary): \(Self.lastError())") }
        var written = false
        defer { if !written { unlink(temporary) } }
        // The umask only removes bits; fchmod makes it exactly 0600 whatever the umask.
        guard fchmod(descriptor, 0o600) == 0, Self.writeAll(data, to: descriptor), fsync(descriptor) == 0 else {
            let reason = Self.lastError()
            close(descriptor)
            throw failure("could not write \(temporary): \(reason)")
        }
        close(descriptor)
        guard rename(temporary, url.path) == 0 else {
            throw failure("could not replace \(url.path): \(Self.lastError())")
        }
        written = true
    }

    /// Deletes the file; succeeds when there is none.
    public func clear() throws {
        guard unlink(url.path) == 0 || errno == ENOENT else {
            throw failure("could not delete \(url.path): \(Self.lastError())")
        }
    }

    private func failure(_ message: String) -> MusterClientError {
        MusterClientError(code: .tokenStorage, message: message)
    }

    private static func writeAll(_ data: Data, to descriptor: Int32) -> Bool {
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
    }

    private static func lastError() -> String {
        String(cString: strerror(errno))
    }
}
