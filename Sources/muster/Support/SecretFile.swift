import ArgumentParser
import Foundation

/// A password a command needs for a peer (the MQTT broker, the cluster's NATS servers): from an owner-only file or
/// an environment variable, never from the command line, where other users of the machine could read it.
enum SecretFile {
    /// The first line of `file` (refused when others may read it), else `variable`'s value, else nil.
    static func password(file: String?, option: String, variable: String) throws -> String? {
        if let file {
            try requireOwnerOnly(file, option: option)
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw ValidationError("\(option) \(file) cannot be read")
            }
            let line = text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
            guard !line.isEmpty else {
                throw ValidationError("\(option) \(file) holds no password on its first line")
            }
            return line
        }
        return ProcessInfo.processInfo.environment[variable].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Refuses a secret's file that others than its owner may read or write.
    static func requireOwnerOnly(_ path: String, option: String) throws {
        if let mode = (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int,
            mode & 0o077 != 0
        {
            throw ValidationError(
                "\(option) \(path) can be read by others (mode \(String(mode, radix: 8))): chmod 600 \(path)")
        }
    }
}
