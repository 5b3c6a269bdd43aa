import EventLog
import Foundation
import Hummingbird
import Muster
import MusterWire

/// `/users`: createInternalUser, and the administrator's list of users.
struct UserController: APIController {
    let api: API

    func addRoutes(to routes: some RouterMethods<API.Context>) {
        routes
            .post("users", use: create)
            .get("users", for: .administrator, use: list)
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

    @Sendable func list(_ request: Request, context: API.Context, caller: API.Caller) async throws -> [User] {
        return try api.directory.users(namespace: caller.namespace).map(User.init)
    }
}
