import Foundation
import Hummingbird
import Muster

extension API {
    /// What an administrator runs for their namespace: groups, settings and the audit.
    func addAdministrationRoutes(to group: RouterGroup<Context>) {
        group.put("groups/:name") { request, context in
            let caller = try context.administrator()
            struct Members: Decodable { var members: [String] }
            let members = try await request.decode(Members.self)
            let defined = try await directory.defineGroup(
                try context.parameter("name"), members: members.members, namespace: caller.namespace,
                actor: caller.username)
            return try JSONCoding.response(defined)
        }

        group.get("groups") { _, context in
            let caller = try context.administrator()
            return try JSONCoding.response(try directory.groups(namespace: caller.namespace))
        }

        group.get("settings") { _, context in
            let caller = try context.administrator()
            return try JSONCoding.response(try settings.list(namespace: caller.namespace))
        }

        group.put("settings/:key") { request, context in
            let caller = try context.administrator()
            let key = try context.parameter("key")
            guard let setting = Setting(rawValue: key) else {
                let known = Setting.allCases.map(\.rawValue).joined(separator: ", ")
                throw APIError(.notFound, "not_found", "no setting \(key); the settings are \(known)")
            }
            struct Value: Decodable { var value: String }
            let value = try await request.decode(Value.self)
            try await settings.set(setting, to: value.value, namespace: caller.namespace, actor: caller.username)
            let entry = try settings.list(namespace: caller.namespace).first { $0.key == setting }
            return try JSONCoding.response(entry)
        }

        group.get("counters") { request, context in
            let caller = try context.administrator()
            let area = request.uri.queryParameters.get("area").map { String($0) }
            return try JSONCoding.response(try RuleCounters(log: log).counters(area: area, namespace: caller.namespace))
        }

        group.get("quota/:user") { request, context in
            let caller = try context.administrator()
            let user = try context.parameter("user")
            guard try directory.user(user, namespace: caller.namespace) != nil else {
                throw APIError(.notFound, "not_found", "no user \(user) in namespace \(caller.namespace)")
            }
            let date = try request.query("date", "a day such as 2026-11-23") {
                RuleCounters.isDay(String($0)) ? String($0) : nil
            }
            let counters = RuleCounters(log: log)
            let day = try date ?? counters.today(user: user, namespace: caller.namespace)
            return try JSONCoding.response(
                try counters.report(user: user, day: day, namespace: caller.namespace))
        }

        group.get("audit") { request, context in
            let caller = try context.administrator()
            let since = try request.query("since", "an ISO 8601 time such as 2026-11-21T08:00:00Z") {
                try? Date($0, strategy: .iso8601)
            }
            let filter = Audit.Filter(
                user: request.uri.queryParameters.get("user"), deviceId: request.uri.queryParameters.get("deviceId"),
                since: since, namespace: caller.namespace,
                area: request.uri.queryParameters.get("area").map { String($0) },
                rule: request.uri.queryParameters.get("rule").map { String($0) })
            return try JSONCoding.response(try Audit(log: log).entries(filter))
        }
    }
}
