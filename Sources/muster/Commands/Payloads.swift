import ArgumentParser
import EventLog
import Foundation
import Muster

/// `muster payloads`: named payloads (ArsRCSPayload) that sends refer to with `payloadName`.
struct Payloads: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Store and read named payloads (sent indirectly with {\"responseTopic\", \"payloadName\"}).",
        subcommands: [Put.self, Get.self])

    struct Put: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Store a payload under a name, replacing what it held; prints {name, replaced}.",
            discussion: "The payload is validated: errors exit 2 (with --json: {\"errors\":[…]} on stdout).")

        @OptionGroup var data: DataOptions
        @OptionGroup var remote: RemoteOptions
        @Argument(help: "The payload's name.") var name: String
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
                let result = try await NamedPayloads(log: log).put(
                    name, payload: text, namespace: namespace, actor: "cli")
                for warning in result.warnings {
                    FileHandle.standardError.write(Data("muster: warning: \(warning)\n".utf8))
                }
                try Output.json(result)
            } catch let rejection as FormRejection {
                try FormErrorOutput.fail(rejection, json: json)
            }
        }
    }

    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print a named payload's JSON as stored.")

        @OptionGroup var data: DataOptions
        @OptionGroup var remote: RemoteOptions
        @Argument(help: "The payload's name.") var name: String
        @Option(help: "Namespace.") var namespace = Names.defaultNamespace

        func run() async throws {
            if let session = try remote.session(data: data) { return try await run(on: session) }
            let log = try data.open()
            defer { log.close() }
            guard let payload = try NamedPayloads(log: log).get(name, namespace: namespace) else {
                throw CommandFailure.invalid("no named payload \(String(reflecting: name)) in namespace \(namespace)")
            }
            Output.line(String(decoding: payload, as: UTF8.self))
        }
    }
}
