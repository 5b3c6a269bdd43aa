import Foundation
import Muster
import MusterClient
import MusterWire

/// A refused payload or response, from a data directory (`FormRejection`) or a server (a 422 with field errors).
struct FormProblems: Error {
    /// What was refused: "payload" or "response".
    var subject: String
    var problems: [MusterClientError.FieldError]
}

/// Reports a refused payload or response: every problem on stderr, and with `--json` the contract's
/// `{"errors":[{"field","message"}]}` on stdout; exit 2.
enum FormErrorOutput {
    /// Runs `work`; a refused form ends the command as the contract says.
    static func reporting<T>(json: Bool, _ work: () async throws -> T) async throws -> T {
        do {
            return try await work()
        } catch let rejection as FormRejection {
            try fail(
                subject: rejection.subject,
                problems: rejection.problems.map { MusterClientError.FieldError(field: $0.field, message: $0.message) },
                json: json)
        } catch let refused as FormProblems {
            try fail(subject: refused.subject, problems: refused.problems, json: json)
        }
    }

    private static func fail(subject: String, problems: [MusterClientError.FieldError], json: Bool) throws -> Never {
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

    /// A comma-separated list, trimmed, without empty items.
    static func list(_ text: String?) -> [String] {
        (text ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
