import EventLog
import EventLogTesting
import Foundation
import Muster
import Testing

@Suite struct SettingsTests {
    @Test func settingsStartAtTheirDefaultsAndEveryChangeIsAnEvent() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open { $0.projections += MusterDomain.projections }
        let settings = Settings(log: log)
        let defaults = try settings.list()
        #expect(defaults.allSatisfy { $0.isDefault })
        #expect(defaults.first { $0.key == .pushSizeLimit }?.value == "4096")
        #expect(defaults.first { $0.key == .dailyNotificationLimit }?.value == nil)

        #expect(try await settings.set(.dailyNotificationLimit, to: " 5 ") == "5")
        #expect(try await settings.set(.automaticUserNotifications, to: "off") == "false")
        #expect(try settings.value(.dailyNotificationLimit) == "5")
        #expect(try settings.value(.dailyNotificationLimit, namespace: "other") == nil)
        #expect(try await settings.set(.dailyNotificationLimit, to: "unset") == nil)
        #expect(try settings.list().first { $0.key == .dailyNotificationLimit }?.isDefault == false)
        #expect(try settings.value(.dailyNotificationLimit) == nil)
        #expect(try log.events(EventQuery(type: SettingChanged.type)).count == 3)

        try await log.rebuild([SettingsProjection.name])
        #expect(try settings.value(.automaticUserNotifications) == "false")
    }

    /// A setting put back to its default is listed as default again — unlike one set to the default's value, which
    /// would keep that value when a later release changes the default — and a rebuild reads it so.
    @Test func aSettingResetIsItsDefaultAgain() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open { $0.projections += MusterDomain.projections }
        let settings = Settings(log: log)
        try await settings.set(.pushSizeLimit, to: "300")
        try await settings.set(.pushSizeLimit, to: "300", namespace: "other")
        let reset = try await settings.reset(.pushSizeLimit)
        #expect(reset == Settings.Entry(key: .pushSizeLimit, value: "4096", isDefault: true))
        #expect(try settings.list().first { $0.key == .pushSizeLimit } == reset)
        #expect(try settings.value(.pushSizeLimit, namespace: "other") == "300", "another namespace keeps its own")
        #expect(try log.events(EventQuery(type: SettingReset.type)).count == 1)

        try await log.rebuild([SettingsProjection.name])
        #expect(try settings.list().first { $0.key == .pushSizeLimit }?.isDefault == true)
        #expect(try settings.value(.pushSizeLimit, namespace: "other") == "300")
    }

    @Test(arguments: [
        (Setting.dailyNotificationLimit, "-1"), (.dailyNotificationLimit, "many"), (.pushSizeLimit, "10"),
        (.automaticServerNotifications, "maybe"),
    ])
    func badValuesAreRefusedNamingTheSettingAndWriteNothing(setting: Setting, value: String) async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open { $0.projections += MusterDomain.projections }
        let error = await #expect(throws: MusterError.self) { try await Settings(log: log).set(setting, to: value) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.hasPrefix(setting.rawValue) == true)
        #expect(log.head == 0)
    }
}
