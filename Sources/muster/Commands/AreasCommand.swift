import ArgumentParser
import EventLog
import Foundation
import Muster

/// `muster areas`: the geofences and beacon regions rules watch.
struct AreasCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "areas", abstract: "Import and list areas (geofences and beacon regions).",
        subcommands: [Import.self, List.self, Monitored.self])

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import areas in the Ubudu web-API format (u_geofences.json / u_beacons.json), all or none.",
            discussion: """
                Geofence radii are kilometres in this format. Numbers may be numeric strings; "" and null \
                mean empty. What is accepted but changed (e.g. the weekday "thi") is printed as a warning. Over \
                HTTP (administrators) the server defines them, all or none, as on a data directory.
                """)

        @OptionGroup var options: BackendOptions
        @Argument(help: ArgumentHelp("The document, or - for stdin.", valueName: "FILE|-")) var file: String
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        func run() async throws {
            let document: Data
            if file == "-" {
                document = FileHandle.standardInput.readDataToEndOfFile()
            } else {
                guard let read = FileManager.default.contents(atPath: file) else {
                    throw CommandFailure.invalid("cannot read \(file): no such file, or not readable")
                }
                document = read
            }
            let result = try await options.run(namespace: namespace, creating: true) {
                try await $0.importAreas(document)
            }
            for warning in result.warnings {
                FileHandle.standardError.write(Data("muster: warning: \(warning)\n".utf8))
            }
            if options.json { return try Output.json(result) }
            Output.line(
                "\(result.defined.count) area\(result.defined.count == 1 ? "" : "s") defined, \(result.unchanged.count) unchanged"
            )
            for change in result.countsChanged {
                Output.line(
                    "rule \(change.rule) of \(change.kind) \(change.area): counts changed (\(change.old) → \(change.new)); its counters start again"
                )
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the areas of a namespace.")

        @OptionGroup var options: BackendOptions
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        func run() async throws {
            let areas = try await options.run(namespace: namespace) { try await $0.areas() }
            if options.json {
                return Output.line(String(decoding: UbuduFormat.json(areas), as: UTF8.self))
            }
            Output.table(
                ["ID", "KIND", "WHERE", "GROUP", "ZONE", "RULES", "NAME"],
                areas.map { area in
                    [
                        area.id, area.kind.rawValue, Self.place(area), area.groupId ?? "", area.timeZone,
                        area.rules.map { "\($0.id):\($0.trigger)" }.joined(separator: ","), area.name,
                    ]
                })
        }

        static func place(_ area: Area) -> String {
            switch area.region {
            case .geofence(let latitude, let longitude, let radius):
                return "\(latitude),\(longitude) r=\(radius.formatted(.number.precision(.fractionLength(0...1)))) m"
            case .beacon(let uuid, let major, let minor):
                return "\(uuid) \(major.map(String.init) ?? "*")/\(minor.map(String.init) ?? "*")"
            }
        }
    }
}
