import EventLog
import Foundation
import Hummingbird
import Muster
import MusterWire

extension API {
    /// createInternalUser, and the administrator's list of users.
    func addUserRoutes(to group: RouterGroup<Context>) {
        group.post("users") { request, context in
            struct NewUser: Decodable {
                var username: String
                var password: String
                var email: String?
                var firstName: String?
                var lastName: String?
                var phone: String?
                var timeZone: String?
                var isAdmin: Bool?
            }
            let caller = context.principal
            guard configuration.openRegistration || caller?.isAdmin == true else {
                if caller == nil { _ = try context.caller() }
                throw APIError(
                    .forbidden, "forbidden", "registration is closed on this server: an administrator creates users")
            }
            let user = try await request.decode(NewUser.self)
            if user.isAdmin == true, caller?.isAdmin != true {
                throw APIError(.forbidden, "forbidden", "only an administrator may create an administrator")
            }
            let minimumLength = configuration.sessionPolicy.minimumPasswordLength
            let username = try UserName.validated(user.username, as: "username")
            try Directory.checkPassword(user.password, minimumLength: minimumLength)
            let created = try await directory.addUser(
                username, password: user.password, email: user.email, timeZone: user.timeZone ?? "UTC",
                isAdmin: user.isAdmin ?? false, firstName: user.firstName, lastName: user.lastName,
                phone: user.phone, namespace: caller?.namespace ?? configuration.namespace,
                actor: caller?.username ?? username, minimumPasswordLength: minimumLength)
            return try JSONCoding.response(User(created), status: .created)
        }

        group.get("users") { _, context in
            let caller = try context.administrator()
            return try JSONCoding.response(try directory.users(namespace: caller.namespace).map(User.init))
        }
    }
}
