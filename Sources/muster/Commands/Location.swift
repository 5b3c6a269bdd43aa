import ArgumentParser
import EventLog
import Foundation
import Muster
import MusterWire

/// `muster location`: a device's fix, as if it had posted it; prints what the rules decided.
struct Location: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Report where a device is; print the transitions and each rule's outcome.",
        discussion: """
            Prints {"transitions":[{"area","trigger"}],"outcomes":[{"rule","area","fired","reason"}]} with --json.
            Rules waiting for their latch time fire at the next report of the device after it, or when \
            the server's timer reaches it.
            """)

    @OptionGroup var options: BackendOptions
    @OptionGroup var report: DeviceReportOptions
    @Option(parsing: .unconditional, help: "Latitude in degrees (-90…90).") var lat: Double
    @Option(parsing: .unconditional, help: "Longitude in degrees (-180…180).") var lng: Double
    @Option(help: "Horizontal accuracy in metres.") var accuracy: Double?

    func run() async throws {
        try await options.printAnswer(to: report) {
            try await $0.locate(report, latitude: lat, longitude: lng, accuracy: accuracy)
        }
    }
}

/// `muster beacon`: a device's sighting of an iBeacon, by its numbers or as the raw advertisement.
struct Beacon: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Report a device's iBeacon sighting; print the transitions and each rule's outcome.",
        discussion: """
            Give --uuid, --major and --minor, or --advert with the advertisement's 30 bytes as hex \
            (02 01 1A 1A FF 4C 00 02 15, the UUID, major, minor, measured power; flags other than 1A, such as \
            06, are accepted). A malformed advert is refused naming the offset and what was expected there.
            """)

    @OptionGroup var options: BackendOptions
    @OptionGroup var report: DeviceReportOptions
    @Option(help: "The beacon's proximity UUID.") var uuid: String?
    @Option(help: "The beacon's major number.") var major: Int?
    @Option(help: "The beacon's minor number.") var minor: Int?
    @Option(help: ArgumentHelp("The raw iBeacon advertisement, hex.", valueName: "HEX")) var advert: String?
    @Option(parsing: .unconditional, help: "Received signal strength, dBm (e.g. -60).") var rssi: Int
    @Option(
        parsing: .unconditional, help: "The beacon's measured power at 1 m, dBm (default -59; an advert has its own).")
    var txPower: Int?
    @Option(
        help: ArgumentHelp(
            "How close the device judged the beacon: immediate, near, far or unknown (default: estimated from --rssi).",
            valueName: "PROXIMITY"))
    var proximity: String?

    func validate() throws {
        if advert != nil {
            if uuid != nil || major != nil || minor != nil || txPower != nil {
                throw ValidationError(
                    "--advert carries the UUID, major, minor and power: give it alone, not with --uuid, --major, --minor or --tx-power"
                )
            }
            if proximity != nil {
                throw ValidationError("--proximity goes with --uuid, --major and --minor, not with --advert")
            }
        } else if uuid == nil || major == nil || minor == nil {
            throw ValidationError("give --uuid, --major and --minor, or --advert HEX")
        }
    }

    func run() async throws {
        try await options.printAnswer(to: report) {
            if let advert { return try await $0.advert(report, advert: advert, rssi: rssi) }
            return try await $0.sighted(
                report, uuid: uuid ?? "", major: major ?? 0, minor: minor ?? 0, rssi: rssi, txPower: txPower ?? -59,
                proximity: proximity)
        }
    }
}

/// What every device report takes: who, which device, when, and where.
struct DeviceReportOptions: ParsableArguments {
    @Option(help: "The user the device belongs to.") var user: String
    @Option(
        help: ArgumentHelp(
            "The device.",
            discussion:
                "Presence is kept per user and device; a device registered to another user is refused (exit 3)."))
    var deviceId: String
    @Option(help: "When it happened, ISO 8601 (default now).") var at: String?
    @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

    func validate() throws {
        if let at, UbuduFormat.parseDate(at) == nil {
            throw ValidationError("--at \(at) is not an ISO 8601 time such as 2026-11-23T10:00:00+01:00")
        }
    }

    /// `--at` as a date; nil for now.
    var time: Date? { at.flatMap(UbuduFormat.parseDate) }
}

extension BackendOptions {
    /// Runs a device's report on the backend (in the report's namespace) and prints what the rules decided: JSON
    /// with `--json`, else the transitions, rule outcomes and geotrigger notices as tables.
    func printAnswer(
        to report: DeviceReportOptions, _ body: (any Backend) async throws -> LocationAnswer
    ) async throws {
        let evaluation = try await run(namespace: report.namespace, body)
        if json { return try Output.json(evaluation) }
        if let ignored = evaluation.ignored { Output.line("ignored: \(ignored)") }
        Output.table(["AREA", "TRIGGER"], evaluation.transitions.map { [$0.area, $0.trigger] })
        Output.line("")
        Output.table(
            ["AREA", "RULE", "FIRED", "REASON"],
            evaluation.outcomes.map { [$0.area, $0.rule, $0.fired ? "yes" : "no", $0.reason] })
        guard !evaluation.geotriggers.isEmpty else { return }
        Output.line("")
        Output.table(
            ["GEOTRIGGER", "FENCE", "TYPE", "FIRED", "MESSAGE"],
            evaluation.geotriggers.map {
                [$0.geotrigger, $0.fence, $0.notificationType, $0.fired ? "yes" : "no", $0.message ?? $0.reason]
            })
    }
}

/// `muster transition`: an entry or exit the device detected itself.
struct Transition: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Report an entry or exit a device detected itself; print each rule's outcome.")

    @OptionGroup var options: BackendOptions
    @OptionGroup var report: DeviceReportOptions
    @Option(help: "The area entered or left.") var area: String
    @Option(help: "geofence or beacon: needed when a geofence and a beacon region share the id.") var kind: Area.Kind?
    @Option(help: "on_entry or on_exit.") var trigger: String
    @Option(parsing: .unconditional, help: "Latitude of the device, for URL templates.") var lat: Double?
    @Option(parsing: .unconditional, help: "Longitude of the device, for URL templates.") var lng: Double?

    func validate() throws {
        if (lat == nil) != (lng == nil) { throw ValidationError("give --lat and --lng together") }
    }

    func run() async throws {
        try await options.printAnswer(to: report) {
            try await $0.transition(report, area: area, kind: kind, trigger: trigger, latitude: lat, longitude: lng)
        }
    }
}

extension Area.Kind: ExpressibleByArgument {}
