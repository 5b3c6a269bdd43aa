import Foundation

/// `openapi-authorization.tsv` beside `openapi.yaml`: for every route of the document, what each kind of caller
/// gets. Read by `AuthorizationMatrixTests`.
struct AuthorizationMatrix {
    /// Who calls, in the table's column order.
    enum Caller: String, CaseIterable, Sendable {
        /// No `Authorization` header.
        case anonymous = "none"
        /// joe's access token, an hour and a second old.
        case expired
        /// joe's access token after he logged out with it.
        case revoked
        /// joe, an ordinary user of the default namespace, who owns the device, message, document and notices.
        case user
        /// ann, an ordinary user of the same namespace who owns none of them.
        case peer
        /// eve, an administrator of namespace "other".
        case other
        /// ada, an administrator of the default namespace.
        case admin
    }

    /// What a caller gets from a route.
    enum Outcome: Equatable, CustomStringConvertible, Sendable {
        /// Any 2xx.
        case success
        /// A 4xx other than 401, 403 and 404: the caller may call the route, but the request the matrix sends is
        /// refused for what it is (a state or body it does not build), not for who sends it.
        case refusedRequest
        /// Exactly this status.
        case status(Int)

        init?(_ text: String) {
            switch text {
            case "2xx": self = .success
            case "4xx": self = .refusedRequest
            default:
                guard let code = Int(text), (100..<600).contains(code) else { return nil }
                self = .status(code)
            }
        }

        func admits(_ status: Int) -> Bool {
            switch self {
            case .success: (200..<300).contains(status)
            case .refusedRequest: (400..<500).contains(status) && ![401, 403, 404].contains(status)
            case .status(let code): status == code
            }
        }

        var description: String {
            switch self {
            case .success: "2xx"
            case .refusedRequest: "4xx"
            case .status(let code): "\(code)"
            }
        }
    }

    /// One row: a route and the outcome for each caller.
    struct Row: Sendable {
        var method: String
        var path: String
        var outcomes: [Caller: Outcome]
        var route: String { "\(method) \(path)" }
    }

    var rows: [Row]

    static var url: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("openapi-authorization.tsv")
    }

    /// Reads the table; throws naming the line that is not a row.
    static func load() throws -> AuthorizationMatrix {
        let text = try String(contentsOf: url, encoding: .utf8)
        var rows: [Row] = []
        var header: [String]?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let cells = trimmed.split(whereSeparator: { $0 == "\t" || $0 == " " }).map(String.init)
            guard let columns = header else {
                let expected = ["method", "path"] + Caller.allCases.map(\.rawValue)
                guard cells == expected else {
                    throw MatrixError("line \(index + 1): the header must be \(expected.joined(separator: " "))")
                }
                header = cells
                continue
            }
            guard cells.count == columns.count else {
                throw MatrixError("line \(index + 1): expected \(columns.count) cells, found \(cells.count)")
            }
            var outcomes: [Caller: Outcome] = [:]
            for (caller, cell) in zip(Caller.allCases, cells.dropFirst(2)) {
                guard let outcome = Outcome(cell) else {
                    throw MatrixError(
                        "line \(index + 1), column \(caller.rawValue): expected 2xx, 4xx or a status, found \(cell)")
                }
                outcomes[caller] = outcome
            }
            rows.append(Row(method: cells[0].uppercased(), path: cells[1], outcomes: outcomes))
        }
        return AuthorizationMatrix(rows: rows)
    }

    struct MatrixError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = "openapi-authorization.tsv: \(description)" }
    }
}
