import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading a password: from the first line of stdin (`--password-stdin`), or asked on the terminal.
enum PasswordInput {
    /// The first line of stdin; a usage error when there is none.
    static func firstLineOfStdin() throws -> String {
        let line = readLine(strippingNewline: true) ?? ""
        guard !line.isEmpty else {
            throw CommandFailure.invalid("--password-stdin: stdin holds no password (one line expected)")
        }
        return line
    }

    /// The first `count` lines of stdin, each a password; a usage error naming what is missing.
    static func linesOfStdin(_ names: [String]) throws -> [String] {
        try names.map { name in
            let line = readLine(strippingNewline: true) ?? ""
            guard !line.isEmpty else {
                throw CommandFailure.invalid(
                    "--password-stdin: stdin holds no \(name) (one line each: \(names.joined(separator: ", then ")))")
            }
            return line
        }
    }

    /// Asks on the terminal without echoing; a usage error when stdin is not a terminal.
    static func ask(_ prompt: String) throws -> String {
        guard isatty(STDIN_FILENO) == 1, let typed = getpass(prompt) else {
            throw CommandFailure.invalid("no terminal to ask the password on: give it with --password-stdin")
        }
        let password = String(cString: typed)
        guard !password.isEmpty else { throw CommandFailure.invalid("no password given") }
        return password
    }
}
