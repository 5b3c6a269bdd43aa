import Foundation
import Muster

/// Reports a refused payload or response: every problem on stderr, and with `--json` the contract's
/// `{"errors":[{"field","message"}]}` on stdout; exit 2.
enum FormErrorOutput {
    static func fail(_ rejection: FormRejection, json: Bool) throws -> Never {
        if json { try Output.json(["errors": rejection.problems]) }
        for problem in rejection.problems {
            FileHandle.standardError.write(Data("muster: \(problem.field): \(problem.message)\n".utf8))
        }
        let count = rejection.errors.count
        MusterCommand.exit(
            with: CommandFailure.invalid("\(rejection.subject) refused: \(count) problem\(count == 1 ? "" : "s")"))
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
