import ArgumentParser
import EventLog
import Foundation
import Muster

/// `muster requests`: user-initiated request templates (ArsRCSRequest, the app's Start tab).
struct RequestTemplates: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "requests",
        abstract: "Store and list request templates users answer unasked (muster respond --request NAME).",
        subcommands: [Put.self, List.self])

    struct Put: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Store a request template, replacing one of the same name; prints it as JSON.",
            discussion: "PAYLOAD_JSON holds the fields; --topic sets its responseTopic. Errors exit 2.")

        @OptionGroup var data: DataOptions
        @OptionGroup var remote: RemoteOptions
        @Argument(help: "The request's name.") var name: String
        @Option(help: "Title shown in the Start tab.") var title: String
        @Option(help: "Body (subtitle) shown under the title.") var body: String
        @Option(help: "Response topic, /a/b/c.") var topic: String
        @Option(help: "Namespace.") var namespace = Names.defaultNamespace
        @Flag(help: "Print payload errors as JSON on stdout.") var json = false
        @Argument(help: ArgumentHelp("The payload JSON, or - for stdin.", valueName: "PAYLOAD_JSON|-"))
        var payload: String

        func run() async throws {
            if let session = try remote.session(data: data) { return try await run(on: session) }
            let text = FormErrorOutput.read(payload)
            let log = try data.open(mustExist: false)
            defer { log.close() }
            do {
                let template = try await Requests(log: log).put(
                    name, title: title, body: body, responseTopic: topic, payload: text, namespace: namespace,
                    actor: "cli")
                try Output.json(template)
            } catch let rejection as FormRejection {
                try FormErrorOutput.fail(rejection, json: json)
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the request templates of a namespace.")

        @OptionGroup var data: DataOptions
        @OptionGroup var remote: RemoteOptions
        @Option(help: "Namespace.") var namespace = Names.defaultNamespace
        @Flag(help: "Print one JSON array.") var json = false

        func run() async throws {
            if let session = try remote.session(data: data) { return try await run(on: session) }
            let log = try data.open()
            defer { log.close() }
            try Self.print(try Requests(log: log).list(namespace: namespace), json: json)
        }

        static func print(_ templates: [RequestTemplateStored], json: Bool) throws {
            if json { return try Output.json(templates) }
            Output.table(
                ["NAME", "TITLE", "BODY", "TOPIC"], templates.map { [$0.name, $0.title, $0.body, $0.responseTopic] })
        }
    }
}
