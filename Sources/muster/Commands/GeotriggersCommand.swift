import ArgumentParser
import EventLog
import Foundation
import MusterWire

/// `muster geotriggers`: fence geotriggers (seed 003) and their monitors.
struct GeotriggersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geotriggers",
        abstract: "Put, list and remove fence geotriggers; start and stop their monitors.",
        discussion: """
            A geotrigger's monitor runs from its definition on: a device's location report that enters or exits \
            one of its fences notifies the device's user. A stopped monitor notifies no one; its crossings are \
            still recorded (muster audit says "the monitor is stopped"). While the monitor runs, the message \
            expression cannot be changed: stop it, put the new expression, start it.
            """,
        subcommands: [Put.self, List.self, Remove.self, Start.self, Stop.self])

    struct Put: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create or replace a geotrigger from its JSON document; prints it as stored.",
            discussion: """
                The document is the API's: {"id","name","fences":{"areas":[…]} or a GeoJSON FeatureCollection, \
                "rule":"enter"|"exit"|"enterOrExit","bufferDistance","messageExpression","requestedActions"}.
                """)

        @OptionGroup var options: BackendOptions
        @Argument(help: ArgumentHelp("The geotrigger's JSON document, or - for stdin.", valueName: "FILE|-"))
        var file: String
        @Option(help: "The geotrigger's id (default: the document's \"id\").") var id: String?
        @Option(help: "The geotrigger's name, shown as the notification's title (replaces the document's).")
        var name: String?
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        func run() async throws {
            var object = try document()
            let given = object["id"].map { $0.stringValue ?? $0.description }
            guard let geotrigger = id ?? given else {
                throw CommandFailure.invalid("--id: the document has no \"id\"; give --id ID")
            }
            if let given, given != geotrigger {
                throw CommandFailure.invalid(
                    "--id \(geotrigger): the document's id is \(given); give the same, or leave --id out")
            }
            if let name { object["name"] = .string(name) }
            let stored = try await options.run(namespace: namespace, creating: true) {
                try await $0.putGeotrigger(id: geotrigger, document: .object(object))
            }
            try Output.json(stored)
        }

        /// The document `file` names, as a JSON object; a usage error naming the argument when it is not one.
        private func document() throws -> [String: JSONValue] {
            let text: Data
            if file == "-" {
                text = FileHandle.standardInput.readDataToEndOfFile()
            } else {
                text = try FileArgument.bytes(file, option: "FILE", what: "the geotrigger's JSON document")
            }
            guard case .object(let object)? = try? JSONValue(json: text) else {
                throw CommandFailure.invalid(
                    "FILE \(file): is not a JSON object; give the geotrigger's document, e.g. {\"id\":\"lobby\", "
                        + "\"messageExpression\":\"…\", \"fences\":{\"areas\":[\"lobby\"]}}")
            }
            return object
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the geotriggers: id, name, rule, fences and whether the monitor runs.",
            discussion: "With --json: one array of the geotriggers' documents, each with \"monitor\".")

        @OptionGroup var options: BackendOptions
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        func run() async throws {
            try await options.printRows(namespace: namespace) { try await $0.geotriggers().map(GeotriggerRow.init) }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a geotrigger and its monitor.")

        @OptionGroup var options: BackendOptions
        @Argument(help: "The geotrigger's id.") var id: String
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        func run() async throws {
            try await options.run(namespace: namespace) { try await $0.removeGeotrigger(id: id) }
            try Output.json(["removed": id])
        }
    }

    struct Start: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Start a geotrigger's monitor: its fence crossings notify again; prints {id, monitor}.")

        @OptionGroup var options: BackendOptions
        @Argument(help: "The geotrigger's id.") var id: String
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        func run() async throws {
            try Output.json(
                try await options.run(namespace: namespace) { try await $0.setGeotriggerMonitor(id: id, to: .running) })
        }
    }

    struct Stop: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Stop a geotrigger's monitor: its crossings notify no one until started; prints {id, monitor}.")

        @OptionGroup var options: BackendOptions
        @Argument(help: "The geotrigger's id.") var id: String
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        func run() async throws {
            try Output.json(
                try await options.run(namespace: namespace) { try await $0.setGeotriggerMonitor(id: id, to: .stopped) })
        }
    }
}

/// A geotrigger as `muster geotriggers list` prints it: its document, or a row of its main members.
struct GeotriggerRow: TableRow {
    var document: JSONValue

    static let header = ["ID", "NAME", "RULE", "FENCES", "MONITOR"]
    var cells: [String] {
        let object = document.objectValue ?? [:]
        func text(_ key: String) -> String { object[key]?.stringValue ?? "-" }
        return [text("id"), text("name"), text("rule"), fences, text("monitor")]
    }

    /// "every geofence", "areas a, b" or "N fences".
    private var fences: String {
        let fences = document.objectValue?["fences"]?.objectValue ?? [:]
        if let features = fences["features"]?.arrayValue {
            return "\(features.count) fence\(features.count == 1 ? "" : "s")"
        }
        let areas = fences["areas"]?.arrayValue?.compactMap(\.stringValue) ?? []
        return areas.isEmpty ? "every geofence" : "areas " + areas.joined(separator: ", ")
    }

    func encode(to encoder: any Encoder) throws { try document.encode(to: encoder) }
}
