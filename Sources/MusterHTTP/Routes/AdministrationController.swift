import Foundation
import Hummingbird
import Muster
import MusterWire

/// `/groups`, `/settings`, `/counters`, `/quota` and `/audit`: what an administrator runs for their namespace.
struct AdministrationController: APIController {
    let api: API

    func addRoutes(to routes: some RouterMethods<API.Context>) {
        routes
            .put("groups/:name", for: .administrator, use: defineGroup)
            .get("groups", for: .administrator, use: groups)
            .delete("groups/:name", for: .administrator, use: removeGroup)
            .get("settings", for: .administrator, use: settings)
            .put("settings/:key", for: .administrator, use: setSetting)
            .delete("settings/:key", for: .administrator, use: resetSetting)
            .get("counters", for: .administrator, use: counters)
            .get("quota/:user", for: .administrator, use: quota)
            .get("audit", for: .administrator, use: audit)
    }

    /// The body of `PUT /groups/{name}`.
    struct Members: Decodable { var members: [String] }

    @Sendable func defineGroup(_ request: Request, context: API.Context, caller: API.Caller) async throws -> Group {
        let members = try await request.decode(as: Members.self, context: context)
        let defined = try await api.directory.defineGroup(
            try context.pathParameter("name"), members: members.members, namespace: caller.namespace,
            actor: caller.username)
        return Group(name: defined.name, members: defined.members)
    }

    @Sendable func removeGroup(_ request: Request, context: API.Context, caller: API.Caller) async throws
        -> HTTPResponse.Status
    {
        try await api.directory.removeGroup(
            try context.pathParameter("name"), namespace: caller.namespace, actor: caller.username)
        return .noContent
    }

    @Sendable func groups(_ request: Request, context: API.Context, caller: API.Caller) async throws -> [Group] {
        return try api.directory.groups(namespace: caller.namespace).map { Group(name: $0.name, members: $0.members) }
    }

    @Sendable func settings(_ request: Request, context: API.Context, caller: API.Caller) async throws
        -> [NamespaceSetting]
    {
        return try api.settings.list(namespace: caller.namespace).map(NamespaceSetting.init)
    }

    /// The body of `PUT /settings/{key}`.
    struct Value: Decodable { var value: String }

    @Sendable func setSetting(_ request: Request, context: API.Context, caller: API.Caller) async throws
        -> NamespaceSetting
    {
        let setting = try Self.setting(context)
        let value = try await request.decode(as: Value.self, context: context)
        try await api.settings.set(setting, to: value.value, namespace: caller.namespace, actor: caller.username)
        // Settings.list names every setting, so the one just set is there.
        let entries = try api.settings.list(namespace: caller.namespace).filter { $0.key == setting }
        return NamespaceSetting(entries[0])
    }

    /// `DELETE /settings/{key}`: the setting back to its default.
    @Sendable func resetSetting(_ request: Request, context: API.Context, caller: API.Caller) async throws
        -> NamespaceSetting
    {
        let setting = try Self.setting(context)
        return NamespaceSetting(
            try await api.settings.reset(setting, namespace: caller.namespace, actor: caller.username))
    }

    /// The setting the path names; 404 naming every setting for another name.
    static func setting(_ context: API.Context) throws -> Setting {
        let key = try context.pathParameter("key")
        guard let setting = Setting(rawValue: key) else {
            let known = Setting.allCases.map(\.rawValue).joined(separator: ", ")
            throw APIError(.notFound, "not_found", "no setting \(key); the settings are \(known)")
        }
        return setting
    }

    @Sendable func counters(_ request: Request, context: API.Context, caller: API.Caller) async throws -> [RuleCounters
        .Counter]
    {
        let area = request.uri.queryParameters.get("area").map { String($0) }
        let kind = try AreaKind.domain(request.uri.queryParameters.get("kind").map { String($0) })
        return try RuleCounters(log: api.log).counters(area: area, kind: kind, namespace: caller.namespace)
    }

    @Sendable func quota(_ request: Request, context: API.Context, caller: API.Caller) async throws
        -> RuleCounters.QuotaReport
    {
        let user = try context.pathParameter("user")
        guard try api.directory.user(user, namespace: caller.namespace) != nil else {
            throw APIError(.notFound, "not_found", "no user \(user) in namespace \(caller.namespace)")
        }
        let date = try request.query("date", "a day such as 2026-11-23") {
            RuleCounters.isDay(String($0)) ? String($0) : nil
        }
        let counters = RuleCounters(log: api.log)
        let day = try date ?? counters.today(user: user, namespace: caller.namespace)
        return try counters.report(user: user, day: day, namespace: caller.namespace)
    }

    @Sendable func audit(_ request: Request, context: API.Context, caller: API.Caller) async throws -> [AuditEntry] {
        let since = try request.query("since", "an ISO 8601 time such as 2026-11-21T08:00:00Z") {
            try? Date($0, strategy: .iso8601)
        }
        let query = request.uri.queryParameters
        let filter = Audit.Filter(
            user: query.get("user"), deviceId: query.get("deviceId"), since: since, namespace: caller.namespace,
            area: query.get("area").map { String($0) }, rule: query.get("rule").map { String($0) })
        return try Audit(log: api.log).entries(filter)
    }
}
