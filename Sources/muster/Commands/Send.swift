import ArgumentParser
import EventLog
import Foundation
import Muster

/// `muster send`: the Notification.sendPayload family.
struct Send: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Send a form payload to users, groups or everyone; prints {messageIds, recipients}.",
        discussion: """
            Group members are expanded and duplicates removed; --all includes the sender. The payload \
            is validated (errors exit 2) and refused above the push size limit.
            """)

    @OptionGroup var data: DataOptions
    @OptionGroup var remote: RemoteOptions
    @Option(help: "Users, comma-separated.") var to: String?
    @Option(help: "Groups, comma-separated.") var group: String?
    @Flag(help: "Every user of the namespace.") var all = false
    @Option(help: "Notification title.") var title: String
    @Option(help: "Notification body.") var body: String
    @Option(help: "Push source name.") var source: String?
    @Option(help: "Who sends it (over HTTP: the logged-in user).") var sender = "cli"
    @Option(help: "Push size limit in bytes (default, and over HTTP always: the namespace's pushSizeLimit setting).")
    var pushSizeLimit: Int?
    @Option(help: "Namespace.") var namespace = Names.defaultNamespace
    @Flag(help: "Print payload errors as JSON on stdout.") var json = false
    @Argument(help: ArgumentHelp("The payload JSON, or - for stdin.", valueName: "PAYLOAD_JSON|-")) var payload: String

    func validate() throws {
        if to == nil && group == nil && !all { throw ValidationError("name recipients: --to, --group or --all") }
    }

    func run() async throws {
        if let session = try remote.session(data: data) { return try await run(on: session) }
        let text = FormErrorOutput.read(payload)
        let log = try data.open(mustExist: false)
        defer { log.close() }
        do {
            let result = try await Notifications(log: log, pushSizeLimit: pushSizeLimit).send(
                to: FormErrorOutput.list(to), groups: FormErrorOutput.list(group), all: all, title: title, body: body,
                source: source, payload: text, namespace: namespace, actor: sender)
            for warning in result.warnings {
                FileHandle.standardError.write(Data("muster: warning: \(warning)\n".utf8))
            }
            try Output.json(result)
        } catch let rejection as FormRejection {
            try FormErrorOutput.fail(rejection, json: json)
        }
    }
}
