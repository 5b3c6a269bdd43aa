import Foundation
import MusterClient

extension Users.Add {
    /// `POST /api/v1/users`: as an administrator, or self-registration when the server allows it.
    func run(on session: ServerSession, password: String?) async throws {
        try session.requireNamespace(namespace)
        guard let password else {
            throw CommandFailure.invalid("over HTTP a new user needs a password: give it with --password-stdin")
        }
        let user = try await session.call {
            try await $0.createInternalUser(
                username: name, password: password, email: email, firstName: firstName, lastName: lastName,
                phone: phone, timeZone: timeZone, isAdmin: admin)
        }
        try Output.json(Users.UserRow(user, namespace: session.namespace, hasPassword: true))
    }
}

extension Users.List {
    /// `GET /api/v1/users` (administrators). The server does not say who has a password: `?` in the table.
    func run(on session: ServerSession) async throws {
        try session.requireNamespace(namespace)
        let users = try await session.call { try await $0.users() }
        try Self.print(users.map { Users.UserRow($0, namespace: session.namespace, hasPassword: nil) }, json: json)
    }
}

extension Users.UserRow {
    init(_ user: User, namespace: String, hasPassword: Bool?) {
        name = user.username
        self.namespace = namespace
        email = user.email
        firstName = user.firstName
        lastName = user.lastName
        phone = user.phone
        timeZone = user.timeZone
        isAdmin = user.isAdmin
        self.hasPassword = hasPassword
    }
}
