import Foundation
import Muster
import MusterClient

extension SettingsCommand.Set {
    /// `PUT /api/v1/settings/{key}` (administrators).
    func run(on session: ServerSession) async throws {
        try session.requireNamespace(namespace)
        let setting = try await session.call { try await $0.setSetting(key.rawValue, value: value) }
        try Output.json(Settings.Entry(key: key, value: setting.value, isDefault: setting.isDefault))
    }
}

extension SettingsCommand.List {
    /// `GET /api/v1/settings` (administrators); a setting this release does not know is left out.
    func run(on session: ServerSession) async throws {
        try session.requireNamespace(namespace)
        let settings = try await session.call { try await $0.settings() }
        try Self.print(
            settings.compactMap { setting in
                Setting(rawValue: setting.key).map {
                    Settings.Entry(key: $0, value: setting.value, isDefault: setting.isDefault)
                }
            }, json: json)
    }
}
