import Foundation
import Muster
import MusterWire

/// A model printed as one row of a table (or, with `--json`, as itself): the one place its columns are said.
protocol TableRow: Encodable {
    /// The column titles.
    static var header: [String] { get }
    /// The row's cells, one per column.
    var cells: [String] { get }
}

/// A user as printed: the wire's user, its namespace, and whether it has a password (never the hash).
struct UserEntry: TableRow {
    var user: User
    var namespace: String

    init(_ user: User, namespace: String) {
        self.user = user
        self.namespace = namespace
    }

    static let header = ["NAME", "EMAIL", "TIME ZONE", "ADMIN", "PASSWORD"]
    var cells: [String] {
        [
            user.username, user.email ?? "-", user.timeZone, user.isAdmin ? "yes" : "no",
            user.hasPassword.map { $0 ? "set" : "-" } ?? "?",
        ]
    }

    private enum CodingKeys: String, CodingKey {
        case name, namespace, email, firstName, lastName, phone, timeZone, isAdmin, hasPassword
    }

    /// The command line's user shape since 0.1.0: `name` (the API's `username`), the namespace, `hasPassword`.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(user.username, forKey: .name)
        try container.encode(namespace, forKey: .namespace)
        try container.encodeIfPresent(user.email, forKey: .email)
        try container.encodeIfPresent(user.firstName, forKey: .firstName)
        try container.encodeIfPresent(user.lastName, forKey: .lastName)
        try container.encodeIfPresent(user.phone, forKey: .phone)
        try container.encode(user.timeZone, forKey: .timeZone)
        try container.encode(user.isAdmin, forKey: .isAdmin)
        try container.encodeIfPresent(user.hasPassword, forKey: .hasPassword)
    }
}

extension Group: TableRow {
    static let header = ["GROUP", "MEMBERS"]
    var cells: [String] { [name, members.joined(separator: ",")] }
}

extension PushTarget: TableRow {
    static let header = ["USER", "DEVICE ID", "DEVICE NAME", "PLATFORM", "TOKEN", "PUBLISH TOPIC"]
    var cells: [String] { [user, deviceId, deviceName, platform.rawValue, token ?? "-", publishTopic ?? "-"] }
}

extension OpenSession: TableRow {
    static let header = ["SESSION", "USER", "DEVICE", "EXPIRES AT", "CURRENT"]
    var cells: [String] {
        [
            sessionId.uuidString.lowercased(), user, deviceId ?? "-", expiresAt.formatted(.iso8601),
            isCurrent.map { $0 ? "yes" : "no" } ?? "-",
        ]
    }
}

extension InboxItem: TableRow {
    static let header = ["MESSAGE ID", "SENT AT", "TOPIC", "TITLE", "BODY"]
    var cells: [String] {
        [messageId.uuidString.lowercased(), sentAt.formatted(.iso8601), responseTopic, title, body]
    }
}

extension RequestTemplate: TableRow {
    static let header = ["NAME", "TITLE", "BODY", "TOPIC"]
    var cells: [String] { [name, title, body, responseTopic] }
}

extension NamespaceSetting: TableRow {
    static let header = ["SETTING", "VALUE", "DEFAULT"]
    var cells: [String] { [key, value ?? "unset", isDefault ? "(default)" : defaultValue ?? "unset"] }
}

extension RuleCounters.Counter: TableRow {
    static let header = ["USER", "KIND", "AREA", "RULE", "GROUP", "TRIGGER", "COUNT"]
    var cells: [String] { [user, kind ?? "", area ?? "", rule ?? "", group ?? "", trigger ?? "", String(count)] }
}

extension RuleCounters.QuotaReport: TableRow {
    static let header = ["USER", "DATE", "NOTIFICATIONS", "LIMIT"]
    var cells: [String] { [user, date, String(notifications), limit.map(String.init) ?? "unlimited"] }
}

extension UploadedDocument: TableRow {
    static let header = ["NAME", "KIND", "SIZE", "CONTENT TYPE", "UPLOADED AT", "USER"]
    var cells: [String] {
        [name, kind.rawValue, String(size), contentType, MusterJSON.formatDate(uploadedAt), user]
    }
}

extension NamedPayload: TableRow {
    static let header = ["NAME", "RESPONSE TOPIC", "FIELDS"]
    var cells: [String] {
        [name, payload["responseTopic"]?.stringValue ?? "-", String(payload["fields"]?.arrayValue?.count ?? 0)]
    }
}
