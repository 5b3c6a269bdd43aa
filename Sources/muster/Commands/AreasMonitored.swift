import ArgumentParser
import EventLog
import Foundation
import Muster
import MusterWire

extension AreasCommand {
    /// `muster areas monitored`: what seed 004's area manager answers about a device.
    struct Monitored: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a device's position and the areas it monitors and is active in.",
            discussion: """
                Monitored: a geofence whose edge is within 10 km of the device's last fix (a beacon region at any \
                distance), within its start and end, and open now. Active: monitored and the device is inside. \
                --json prints {"user","deviceId","position","monitoringDistance","monitored","active"}.
                """)

        @OptionGroup var options: BackendOptions
        @Option(help: "The user the device belongs to.") var user: String
        @Option(help: "The device.") var deviceId: String
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        func run() async throws {
            let answer = try await options.run(namespace: namespace) {
                try await $0.deviceAreas(user: user, deviceId: deviceId)
            }
            if options.json { return try Output.json(answer) }
            let position = answer.position.map { "\($0.lat),\($0.lng)" } ?? "unknown (no fix yet)"
            Output.line("position: \(position)")
            Output.table(
                ["KIND", "ID", "DISTANCE", "ACTIVE", "NAME"],
                answer.monitored.map { area -> [String] in
                    let distance = area.distance.map { "\(Int($0.rounded())) m" } ?? "-"
                    return [area.kind, area.id, distance, area.inside ? "yes" : "no", area.name]
                })
        }
    }
}
