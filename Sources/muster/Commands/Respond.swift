import ArgumentParser
import EventLog
import Foundation
import Muster

/// `muster respond`: answers a message as a user's device would.
struct Respond: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Answer a message in a user's inbox; prints the response object.",
        discussion: """
            VALUES_JSON maps field ids to values; fields left out take their defaults. Invalid values \
            exit 2 (with --json: {"errors":[{"field","message"}]} on stdout); a second answer exits 3.
            """)

    @OptionGroup var data: DataOptions
    @Argument(help: "The message id.") var messageId: String
    @Option(help: "The responding user.") var user: String
    @Option(help: "The responding device's id.") var deviceId: String
    @Option(help: "The device's name (default: as registered, else its id).") var deviceName: String?
    @Option(help: "The value of the button clicked (0: the app's Submit).") var submitValue = 0
    @Option(help: "Device latitude, for currentLocation fields.") var latitude: Double?
    @Option(help: "Device longitude, for currentLocation fields.") var longitude: Double?
    @Option(help: "Namespace.") var namespace = Names.defaultNamespace
    @Flag(help: "Print value errors as JSON on stdout.") var json = false
    @Argument(help: ArgumentHelp("The values JSON object, or - for stdin.", valueName: "VALUES_JSON|-"))
    var values: String

    func validate() throws {
        guard UUID(uuidString: messageId) != nil else {
            throw ValidationError("MESSAGE_ID must be a UUID, not \(String(reflecting: messageId))")
        }
        if (latitude == nil) != (longitude == nil) { throw ValidationError("give --latitude and --longitude together") }
    }

    func run() async throws {
        let text = FormErrorOutput.read(values)
        let log = try data.open()
        defer { log.close() }
        var location: Notifications.Location?
        if let latitude, let longitude { location = .init(latitude: latitude, longitude: longitude) }
        do {
            let answer = try await Notifications(log: log).respond(
                messageId: UUID(uuidString: messageId)!, user: user, deviceId: deviceId, deviceName: deviceName,
                submitValue: submitValue, values: text, at: location, namespace: namespace)
            Output.line(String(decoding: answer.json, as: UTF8.self))
        } catch let rejection as FormRejection {
            try FormErrorOutput.fail(rejection, json: json)
        }
    }
}
