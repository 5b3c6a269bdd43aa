import EventLog
import Foundation
import Hummingbird
import Muster
import MusterWire

/// `/users`: createInternalUser, and the administrator's list and removal of users.
///
/// A name in a path is a user's name exactly, as everywhere but at login (which also takes one that folds alike):
/// `PATCH /users/JOE` by joe names someone else, whom the namespace does not have.
struct UserController: APIController {
    let api: API

    func addRoutes(to routes: some RouterMethods<API.Context>) {
        routes
            .post("users", use: create)
            .get("users", for: .administrator, use: list)
            .put("users/:name/password", for: .user, use: changePassword)
            .delete("users/:name", for: .administrator, use: remove)
            .on("users/:name", method: .patch, for: .user, use: change)
            .get("users/:name", for: .user, use: user)
    }

    @Sendable func create(_ request: Request, context: API.Context) async throws -> EditedResponse<User> {
        let caller = context.principal
        guard api.configuration.openRegistration || caller?.isAdmin == true else {
            if caller == nil { _ = try context.caller() }
            throw APIError(
                .forbidden, "forbidden", "registration is closed on this server: an administrator creates users")
        }
        let user = try await request.decode(as: NewUserBody.self, context: context)
        if user.isAdmin == true, caller?.isAdmin != true {
            throw APIError(.forbidden, "forbidden", "only an administrator may create an administrator")
        }
        let minimumLength = api.configuration.sessionPolicy.minimumPasswordLength
        let username = try UserName.validated(user.username, as: "username")
        try Directory.checkPassword(user.password, minimumLength: minimumLength)
        let created = try await api.directory.addUser(
            username, password: user.password, email: user.email, timeZone: user.timeZone ?? "UTC",
            isAdmin: user.isAdmin ?? false, firstName: user.firstName, lastName: user.lastName,
            phone: user.phone, namespace: caller?.namespace ?? api.configuration.namespace,
            actor: caller?.username ?? username, minimumPasswordLength: minimumLength)
        return EditedResponse(status: .created, response: User(created))
    }

    /// A new password: one's own with the current one (the caller's other sessions end), or, for an administrator,
    /// another user's of the namespace (every session of theirs ends).
    @Sendable func changePassword(_ request: Request, context: API.Context, caller: API.Caller) async throws -> User {
        let name = try context.pathParameter("name")
        let body = try await request.decode(as: PasswordChangeBody.self, context: context)
        let own = name == caller.username
        guard own || caller.isAdmin else {
            throw APIError(
                .forbidden, "forbidden", "only an administrator may change another user's password",
                fields: [.init(field: "name", message: "name yourself, \(caller.username), to change your own")])
        }
        let minimumLength = api.configuration.sessionPolicy.minimumPasswordLength
        try Directory.checkPassword(body.password, minimumLength: minimumLength)
        if own {
            guard let current = body.currentPassword else {
                throw APIError(
                    .badRequest, "bad_request", "give your current password to change it",
                    fields: [.init(field: "currentPassword", message: "expected your current password")])
            }
            let address = api.configuration.clientAddress(request, context)
            guard
                try await api.sessions.confirmPassword(
                    current, user: name, namespace: caller.namespace, clientAddress: address)
            else {
                throw APIError(
                    .forbidden, "forbidden", "the current password is not right; nothing was changed",
                    fields: [.init(field: "currentPassword", message: "expected your current password")])
            }
        }
        return User(
            try await api.directory.changePassword(
                name, to: body.password, keeping: own ? caller.sessionId : nil, namespace: caller.namespace,
                actor: caller.username, minimumPasswordLength: minimumLength))
    }

    /// One user's profile: one's own, or for an administrator anyone's of the namespace.
    @Sendable func user(_ request: Request, context: API.Context, caller: API.Caller) async throws -> User {
        let name = try context.pathParameter("name")
        guard caller.isAdmin || name == caller.username else {
            throw APIError(
                .forbidden, "forbidden", "only an administrator may read another user's profile",
                fields: [.init(field: "name", message: "name yourself, \(caller.username)")])
        }
        guard let user = try api.directory.user(name, namespace: caller.namespace) else {
            throw APIError(.notFound, "not_found", "no user named \(name) in namespace \(caller.namespace)")
        }
        return User(user)
    }

    /// Changes a profile: an administrator anyone's of the namespace, anyone else their own but whether they administer
    /// it. An administrator cannot make themselves a user (another one can), so one always remains.
    @Sendable func change(_ request: Request, context: API.Context, caller: API.Caller) async throws -> User {
        let name = try context.pathParameter("name")
        let changes = try await request.decode(as: UserChanges.self, context: context)
        let own = name == caller.username
        guard caller.isAdmin || (own && changes.isAdmin == nil) else {
            throw APIError(
                .forbidden, "forbidden",
                own
                    ? "only an administrator may change whether a user administers the namespace"
                    : "only an administrator may change another user's profile",
                fields: [.init(field: own ? "isAdmin" : "name", message: own ? "leave it out" : "name yourself")])
        }
        if own, caller.isAdmin, changes.isAdmin == false {
            throw APIError(
                .conflict, "conflict",
                "you cannot stop administering the namespace yourself; another administrator can",
                fields: [.init(field: "isAdmin", message: "leave it out, or true")])
        }
        return User(
            try await api.directory.changeUser(name, changes, namespace: caller.namespace, actor: caller.username))
    }

    /// Removes another user of the namespace: their sessions end, their devices are unregistered, they leave their
    /// groups. An administrator cannot remove themselves (another one can), so one always remains.
    @Sendable func remove(_ request: Request, context: API.Context, caller: API.Caller) async throws -> UserRemoval {
        let name = try context.pathParameter("name")
        guard name != caller.username else {
            throw APIError(
                .conflict, "conflict", "you cannot remove yourself, \(caller.username); another administrator can",
                fields: [.init(field: "name", message: "expected another user's name")])
        }
        return try await api.directory.removeUser(name, namespace: caller.namespace, actor: caller.username)
    }

    @Sendable func list(_ request: Request, context: API.Context, caller: API.Caller) async throws -> [User] {
        return try api.directory.users(namespace: caller.namespace).map(User.init)
    }
}
