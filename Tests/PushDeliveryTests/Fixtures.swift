import EventLog
import Foundation
import Muster
import MusterWire
import PushDelivery

/// What the delivery tests share: a log with Muster's projections, and user ann with a Web Push source
/// `browsers` and her browser registered.
enum Fixtures {
    /// The data directory's log with every Muster projection.
    static func log(in directory: URL) throws -> EventLog {
        var configuration = EventLog.Configuration()
        configuration.projections += MusterDomain.projections
        return try EventLog(directory: directory, configuration: configuration)
    }

    /// User ann, the Web Push source `browsers`, and ann's browser `firefox` subscribed with `subscription`.
    static func annWithABrowser(in log: EventLog, subscription: String) async throws {
        try await Directory(log: log).addUser("ann", password: nil)
        let prepared = try PushSourceSetup.prepare(
            PushSourceBody(name: "browsers", kind: .webpush, subject: "mailto:ops@example.org"))
        try await PushSources(log: log).configure(
            "browsers", kind: prepared.kind, details: prepared.details, endpoint: nil, secret: prepared.secret)
        try await Directory(log: log).register(
            PushTargetRegistered(
                user: "ann", deviceId: "firefox", deviceName: "Firefox", platform: .web, token: subscription))
    }
}
