import Foundation
import MusterClient
import MusterWire

/// The area notifications handed to the logged-in user's devices, and their trace logging: a notice is read,
/// performed and dismissed, and a device's trace logging read and set, by its own user.
extension ServerSession {
    func notices(user: String?, deviceId: String) async throws -> [AreaNotification] {
        try requireSelf(user, option: "--user", why: "a device's notices are read by its own user")
        return try await call { try await $0.notices(deviceId: deviceId) }
    }

    func performNotice(_ id: UUID, user: String?) async throws -> NoticeOutcome {
        try requireSelf(user, option: "--user", why: "a notice is performed by its own user")
        return try await call { try await $0.performNotice(id) }
    }

    func dismissNotice(_ id: UUID, user: String?) async throws -> NoticeOutcome {
        try requireSelf(user, option: "--user", why: "a notice is dismissed by its own user")
        return try await call { try await $0.dismissNotice(id) }
    }

    func traceLogging(user: String?, deviceId: String) async throws -> DeviceTraceLogging {
        try requireSelf(user, option: "--user", why: "a device's trace logging is read by its own user")
        return try await call { try await $0.traceLogging(deviceId: deviceId) }
    }

    func setTraceLogging(_ enabled: Bool?, user: String?, deviceId: String) async throws -> DeviceTraceLogging {
        try requireSelf(user, option: "--user", why: "a device's trace logging is set by its own user")
        return try await call { try await $0.setTraceLogging(enabled, deviceId: deviceId) }
    }
}
