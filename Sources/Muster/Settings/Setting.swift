import EventLog
import Foundation

/// A namespace setting: its name, what it holds, its default.
public enum Setting: String, Sendable, CaseIterable, Codable {
    /// Most notifications a user gets per day from rules (the Ubudu daily maximum); unset = unlimited.
    case dailyNotificationLimit
    /// Whether rules may call the server hook (Ubudu `notify_server`).
    case automaticServerNotifications
    /// Whether rules may notify users (Ubudu `notify_user`).
    case automaticUserNotifications
    /// Most bytes of a message a push carries whole; a larger message is pushed as its id for the app to fetch.
    case pushSizeLimit
    /// Most bytes of documents one user may have stored; unset = unlimited. Default 1 GiB.
    case documentQuotaPerUser
    /// Most bytes of documents the namespace may have stored; unset (the default) = unlimited.
    case documentQuotaPerNamespace
    /// Whether a response's `deviceId` must be one of the responder's registered devices (push targets); when
    /// false (the default) it is recorded as given.
    case requireRegisteredDevice
    /// Whether devices' live streams also carry the rules' decisions not to act (counts, schedule, quota,
    /// latch) as `trace` events (the Ubudu SDK's trace logging); a stream may ask for them with `trace=true`
    /// whatever this says. Default false.
    case traceLogging

    /// The value when never set, as text; nil for "unset".
    public var defaultValue: String? {
        switch self {
        case .dailyNotificationLimit: nil
        case .automaticServerNotifications: "true"
        case .automaticUserNotifications: "true"
        case .pushSizeLimit: "4096"
        case .documentQuotaPerUser: String(1 << 30)
        case .documentQuotaPerNamespace: nil
        case .requireRegisteredDevice: "false"
        case .traceLogging: "false"
        }
    }

    /// The value in canonical form, or an error naming the setting and what it takes.
    /// `unset` (or `none`) clears a setting that may be unset.
    public func normalize(_ text: String) throws -> String? {
        do {
            return try canonical(text)
        } catch var error as MusterError {
            error.field = "value"  // what `PUT /settings/{key}` calls it
            throw error
        }
    }

    private func canonical(_ text: String) throws -> String? {
        let value = text.trimmingCharacters(in: .whitespaces)
        switch self {
        case .dailyNotificationLimit:
            if ["unset", "none", ""].contains(value.lowercased()) { return nil }
            guard let n = Int(value), n >= 0 else {
                throw MusterError(
                    .invalidArgument,
                    "\(rawValue) takes a whole number ≥ 0, or unset for no limit; not \(String(reflecting: text))")
            }
            return String(n)
        case .automaticServerNotifications, .automaticUserNotifications, .requireRegisteredDevice, .traceLogging:
            switch value.lowercased() {
            case "true", "yes", "on", "1": return "true"
            case "false", "no", "off", "0": return "false"
            default:
                throw MusterError(.invalidArgument, "\(rawValue) takes true or false; not \(String(reflecting: text))")
            }
        case .pushSizeLimit:
            guard let n = Int(value), n >= 256 else {
                throw MusterError(
                    .invalidArgument, "\(rawValue) takes a number of bytes ≥ 256; not \(String(reflecting: text))")
            }
            return String(n)
        case .documentQuotaPerUser, .documentQuotaPerNamespace:
            if ["unset", "none", ""].contains(value.lowercased()) { return nil }
            guard let bytes = Self.bytes(value) else {
                throw MusterError(
                    .invalidArgument,
                    "\(rawValue) takes a number of bytes ≥ 0 (1073741824, or with a unit: 500MiB, 2GiB), "
                        + "or unset for no limit; not \(String(reflecting: text))")
            }
            return String(bytes)
        }
    }

    /// `1073741824`, `1024KiB`, `500 MiB`, `2GiB`, `1TiB` (K/M/G/T alone too: powers of 1024) as bytes.
    static func bytes(_ text: String) -> UInt64? {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        let unit = text.dropFirst(digits.count).trimmingCharacters(in: .whitespaces).lowercased()
        let shifts: [String: UInt64] = [
            "": 0, "b": 0, "k": 10, "kib": 10, "m": 20, "mib": 20, "g": 30, "gib": 30, "t": 40, "tib": 40,
        ]
        guard let number = UInt64(digits), let shift = shifts[unit] else { return nil }
        let (bytes, overflow) = number.multipliedReportingOverflow(by: 1 << shift)
        return overflow ? nil : bytes
    }
}
