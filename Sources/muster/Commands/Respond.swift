import ArgumentParser
import EventLog
import Foundation
import MusterWire

/// `muster respond`: answers a message as a user's device would.
struct Respond: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Answer a message in a user's inbox, or a request template; prints the response object.",
        discussion: """
            VALUES_JSON maps field ids to values; fields left out take their defaults. Invalid values \
            exit 2 (with --json: {"errors":[{"field","message"}]} on stdout); a second answer exits 3. \
            With --request NAME no message id is given: the user answers that template unasked.
            """)

    @OptionGroup var options: BackendOptions
    @Argument(help: "The message id (not with --request).") var messageId: String?
    @Option(help: "Answer this request template instead of a message.") var request: String?
    @Option(help: "The responding user (over HTTP: the logged-in user, the default).") var user: String?
    @Option(help: "The responding device's id.") var deviceId: String
    @Option(help: "The device's name (default: as registered, else its id).") var deviceName: String?
    @Option(help: "The value of the button clicked (0: the app's Submit).") var submitValue = 0
    @Option(parsing: .unconditional, help: "Device latitude, for currentLocation fields.") var latitude: Double?
    @Option(parsing: .unconditional, help: "Device longitude, for currentLocation fields.") var longitude: Double?
    @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?
    @Argument(help: ArgumentHelp("The values JSON object, or - for stdin.", valueName: "VALUES_JSON|-"))
    var values: String?

    func validate() throws {
        if request != nil {
            guard messageId == nil || values == nil else {
                throw ValidationError("give --request NAME or a MESSAGE_ID, not both")
            }
        } else if values == nil {
            throw ValidationError("give MESSAGE_ID and VALUES_JSON (or --request NAME and VALUES_JSON)")
        }
        if request == nil, let messageId, UUID(uuidString: messageId) == nil {
            throw ValidationError("MESSAGE_ID must be a UUID, not \(String(reflecting: messageId))")
        }
        if (latitude == nil) != (longitude == nil) { throw ValidationError("give --latitude and --longitude together") }
    }

    /// The values argument: with --request the only positional argument parsed is the values.
    var valuesArgument: String { values ?? messageId ?? "" }

    func run() async throws {
        var location: GeoPoint?
        if let latitude, let longitude { location = GeoPoint(latitude: latitude, longitude: longitude) }
        let answer = Answer(
            messageId: request == nil ? messageId.flatMap(UUID.init(uuidString:)) : nil, request: request, user: user,
            deviceId: deviceId, deviceName: deviceName, submitValue: submitValue,
            values: FormErrorOutput.read(valuesArgument), location: location)
        let response = try await FormErrorOutput.reporting(json: options.json) {
            try await options.run(namespace: namespace) { try await $0.respond(answer) }
        }
        Output.line(String(decoding: response.jsonData(), as: UTF8.self))
    }
}
