import Foundation
import Muster
import MusterClient
import MusterWire

/// Reports a refused payload or response: every problem on stderr, and with `--json` the contract's
/// `{"errors":[{"field","message"}]}` on stdout; exit 2.
enum FormErrorOutput {
    static func fail(_ rejection: FormRejection, json: Bool) throws -> Never {
        try fail(
            subject: rejection.subject,
            problems: rejection.problems.map { MusterClientError.FieldError(field: $0.field, message: $0.message) },
            json: json)
    }

    /// The same for problems a server reported (a 422 with field errors).
    static func fail(subject: String, problems: [MusterClientError.FieldError], json: Bool) throws -> Never {
        if json { try Output.json(["errors": problems]) }
        for problem in problems {
            FileHandle.standardError.write(Data("muster: \(problem.field): \(problem.message)\n".utf8))
        }
        let count = problems.count
        MusterCommand.exit(
            with: CommandFailure.invalid("\(subject) refused: \(count) problem\(count == 1 ? "" : "s")"))
    }

    /// The text of a JSON argument, or stdin for `-`.
    static func read(_ argument: String) -> Data {
        argument == "-" ? FileHandle.standardInput.readDataToEndOfFile() : Data(argument.utf8)
    }

    /// A payload argument (or stdin for `-`) parsed for a server; text that is not JSON is refused as the
    /// local verbs refuse it (the server judges the rest).
    static func payload(_ argument: String, json: Bool) throws -> JSONValue {
        guard let payload = try? JSONValue(json: read(argument)) else {
            try fail(
                subject: "payload", problems: [.init(field: "payload", message: "is not valid JSON [not-json]")],
                json: json)
        }
        return payload
    }

    /// A response's values argument (or stdin for `-`) parsed for a server: a JSON object, or refused as the
    /// local verb refuses it.
    static func values(_ argument: String, json: Bool) throws -> [String: JSONValue] {
        guard let values = (try? JSONValue(json: read(argument)))?.objectValue else {
            try fail(
                subject: "response",
                problems: [.init(field: "values", message: "must be a JSON object of field id → value [not-json]")],
                json: json)
        }
        return values
    }

    /// A comma-separated list, trimmed, without empty items.
    static func list(_ text: String?) -> [String] {
        (text ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
