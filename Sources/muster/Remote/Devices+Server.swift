import Foundation
import Muster
import MusterClient

extension Devices {
    /// Why `--user` cannot name someone else over HTTP.
    static let ownDevices = "devices are each user's own"
}

extension Devices.Register {
    /// `POST /api/v1/devices`: a device of the logged-in user.
    func run(on session: ServerSession) async throws {
        try session.requireSelf(user, option: "--user", why: Devices.ownDevices)
        try session.requireNamespace(namespace)
        let device = try await session.call {
            try await $0.registerDevice(
                deviceId: deviceId, deviceName: deviceName, platform: PushTarget.Platform(platform), token: token)
        }
        try Output.json(PushTargetRegistered(device))
    }
}

extension Devices.List {
    /// `GET /api/v1/devices`: the logged-in user's devices.
    func run(on session: ServerSession) async throws {
        try session.requireSelf(user, option: "--user", why: Devices.ownDevices)
        try session.requireNamespace(namespace)
        let devices = try await session.call { try await $0.devices() }
        try Self.print(devices.map(PushTargetRegistered.init), json: json)
    }
}

extension Devices.Remove {
    /// `DELETE /api/v1/devices/{deviceId}`: a device of the logged-in user.
    func run(on session: ServerSession) async throws {
        try session.requireSelf(user, option: "--user", why: Devices.ownDevices)
        try session.requireNamespace(namespace)
        try await session.call { try await $0.unregisterDevice(deviceId: deviceId) }
        try Output.json(["removed": deviceId])
    }
}

extension PushTarget.Platform {
    init(_ platform: PushTargetRegistered.Platform) {
        switch platform {
        case .web: self = .web
        case .apns: self = .apns
        case .fcm: self = .fcm
        case .mqtt: self = .mqtt
        }
    }
}

extension PushTargetRegistered.Platform {
    init(_ platform: PushTarget.Platform) {
        switch platform {
        case .web: self = .web
        case .apns: self = .apns
        case .fcm: self = .fcm
        case .mqtt: self = .mqtt
        }
    }
}

extension PushTargetRegistered {
    init(_ device: PushTarget) {
        self.init(
            user: device.user, deviceId: device.deviceId, deviceName: device.deviceName,
            platform: Platform(device.platform), token: device.token)
    }
}
