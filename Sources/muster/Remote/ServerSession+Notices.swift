import Foundation
import MusterClient
import MusterWire

/// The area notifications handed to the logged-in user's devices: a notice is read, performed and dismissed by
/// its own user.
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
}
