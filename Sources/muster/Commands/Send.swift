import ArgumentParser
import EventLog
import Foundation
import MusterWire

/// `muster send`: the Notification.sendPayload family.
struct Send: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Send a form payload to users, groups or everyone; prints {messageIds, recipients, notCarried}.",
        discussion: """
            Group members are expanded and duplicates removed; --all includes the sender. The payload \
            is validated (errors exit 2); a payload of any size is sent (a push carries it whole only when it \
            fits the provider and the pushSizeLimit setting, else its id). A recipient's MQTT device gets it as a \
            DialogMessage; notCarried lists, per device, the fields it cannot show (the message stays in the inbox).
            """)

    @OptionGroup var options: BackendOptions
    @Option(help: "Users, comma-separated.") var to: String?
    @Option(help: "Groups, comma-separated.") var group: String?
    @Flag(help: "Every user of the namespace.") var all = false
    @Option(help: "Notification title.") var title: String
    @Option(help: "Notification body.") var body: String
    @Option(help: "Push source name.") var source: String?
    @Option(help: "Who sends it (over HTTP: the logged-in user).") var sender = "cli"
    @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?
    @OptionGroup(title: "MQTT devices") var mqtt: SendMQTTOptions
    @Argument(help: ArgumentHelp("The payload JSON, or - for stdin.", valueName: "PAYLOAD_JSON|-")) var payload: String

    func validate() throws {
        if to == nil && group == nil && !all { throw ValidationError("name recipients: --to, --group or --all") }
    }

    func run() async throws {
        var recipients = Recipients(users: FormErrorOutput.list(to), groups: FormErrorOutput.list(group))
        recipients.all = all
        let dialog = try mqtt.settings()
        try await options.submit(payload, namespace: namespace) {
            try await $0.send(
                title: title, body: body, payload: $1, to: recipients, source: source, sender: sender, dialog: dialog)
        }
    }
}
