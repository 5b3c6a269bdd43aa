import Foundation
import MusterWire

extension MusterClient {
    /// Admin: the users of the namespace (`GET /api/v1/users`).
    public func users() async throws(MusterClientError) -> [User] {
        let request = APIRequest("GET", ["users"])
        return try decode([User].self, from: try await perform(request), of: request)
    }

    /// One user's profile (`GET /api/v1/users/{name}`): one's own, or for an administrator anyone's of the namespace.
    public func user(_ name: String) async throws(MusterClientError) -> User {
        let request = APIRequest("GET", ["users", name])
        return try decode(User.self, from: try await perform(request), of: request)
    }

    /// Changes a user's profile (`PATCH /api/v1/users/{name}`): what `changes` names, the rest as it is. An
    /// administrator changes anyone's, anyone else their own but `isAdmin`. Returns the user as stored now.
    public func changeUser(_ name: String, _ changes: UserChanges) async throws(MusterClientError) -> User {
        let request = try APIRequest("PATCH", ["users", name], json: changes)
        return try decode(User.self, from: try await perform(request), of: request)
    }

    /// The open sessions of `user` (`GET /api/v1/sessions`): one's own when nil; another user's for administrators.
    public func sessions(of user: String? = nil) async throws(MusterClientError) -> [OpenSession] {
        var request = APIRequest("GET", ["sessions"])
        request.query = user.map { [URLQueryItem(name: "user", value: $0)] } ?? []
        return try decode([OpenSession].self, from: try await perform(request), of: request)
    }

    /// Admin: the open sessions of every user of the namespace, by user (`GET /api/v1/sessions?all=true`).
    public func allSessions() async throws(MusterClientError) -> [OpenSession] {
        var request = APIRequest("GET", ["sessions"])
        request.query = [URLQueryItem(name: "all", value: "true")]
        return try decode([OpenSession].self, from: try await perform(request), of: request)
    }

    /// Ends a session (`DELETE /api/v1/sessions/{id}`): one's own, or for an administrator anyone's of the
    /// namespace. Throws `not_found` for no such open session.
    public func endSession(_ id: UUID) async throws(MusterClientError) {
        _ = try await perform(APIRequest("DELETE", ["sessions", id.uuidString.lowercased()]))
    }

    /// Admin: removes a user of the namespace (`DELETE /api/v1/users/{name}`): their sessions end, their devices are
    /// unregistered, they leave their groups. Throws `not_found` for no such user, `conflict` for oneself.
    public func removeUser(_ name: String) async throws(MusterClientError) -> UserRemoval {
        let request = APIRequest("DELETE", ["users", name])
        return try decode(UserRemoval.self, from: try await perform(request), of: request)
    }

    /// Admin: defines a group, replacing the members of one of the same name (`PUT /api/v1/groups/{name}`);
    /// returns it as stored. Throws `bad_request` naming a member who is not a user.
    ///
    /// - Parameters:
    ///   - name: the group's name.
    ///   - members: the members' usernames.
    public func defineGroup(name: String, members: [String]) async throws(MusterClientError) -> Group {
        let request = try APIRequest("PUT", ["groups", name], json: ["members": members])
        return try decode(Group.self, from: try await perform(request), of: request)
    }

    /// Admin: removes a group (`DELETE /api/v1/groups/{name}`); its members stay users. Throws `not_found` for no
    /// such group.
    public func removeGroup(name: String) async throws(MusterClientError) {
        _ = try await perform(APIRequest("DELETE", ["groups", name]))
    }

    /// Admin: the groups of the namespace (`GET /api/v1/groups`).
    public func groups() async throws(MusterClientError) -> [Group] {
        let request = APIRequest("GET", ["groups"])
        return try decode([Group].self, from: try await perform(request), of: request)
    }

    /// Admin: every setting of the namespace with its value (`GET /api/v1/settings`).
    public func settings() async throws(MusterClientError) -> [NamespaceSetting] {
        let request = APIRequest("GET", ["settings"])
        return try decode([NamespaceSetting].self, from: try await perform(request), of: request)
    }

    /// Admin: changes a setting of the namespace (`PUT /api/v1/settings/{key}`); returns it as stored.
    /// Throws `not_found` for an unknown key and `bad_request` for a value the setting does not take.
    ///
    /// - Parameters:
    ///   - key: the setting, e.g. `pushSizeLimit`.
    ///   - value: its new value as text; `unset` clears a setting that may be unset.
    public func setSetting(_ key: String, value: String) async throws(MusterClientError) -> NamespaceSetting {
        let request = try APIRequest("PUT", ["settings", key], json: ["value": value])
        return try decode(NamespaceSetting.self, from: try await perform(request), of: request)
    }

    /// Admin: puts a setting of the namespace back to its default (`DELETE /api/v1/settings/{key}`); returns it, now
    /// default. Throws `not_found` for an unknown key.
    public func resetSetting(_ key: String) async throws(MusterClientError) -> NamespaceSetting {
        let request = APIRequest("DELETE", ["settings", key])
        return try decode(NamespaceSetting.self, from: try await perform(request), of: request)
    }

    /// Admin: what was sent to people and what they answered, oldest first (`GET /api/v1/audit`): one entry per
    /// event, `{"position", "time", "what", "detail", "user"?, "actor", …}`.
    ///
    /// - Parameters:
    ///   - user: only what concerns this user.
    ///   - deviceId: only responses from and registrations of this device.
    ///   - since: only what was recorded at or after this time (to the second).
    public func audit(
        user: String? = nil, deviceId: String? = nil, since: Date? = nil, area: String? = nil, rule: String? = nil
    ) async throws(MusterClientError) -> [AuditEntry] {
        var request = APIRequest("GET", ["audit"])
        request.query = [
            user.map { URLQueryItem(name: "user", value: $0) },
            deviceId.map { URLQueryItem(name: "deviceId", value: $0) },
            since.map { URLQueryItem(name: "since", value: MusterJSON.formatDate($0)) },
            area.map { URLQueryItem(name: "area", value: $0) },
            rule.map { URLQueryItem(name: "rule", value: $0) },
        ].compactMap { $0 }
        return try decode([AuditEntry].self, from: try await perform(request), of: request)
    }

    /// The rules' event counters of the namespace (`GET /api/v1/counters`, administrators), optionally
    /// of one area (of one `kind`, `geofence` or `beacon`, when given):
    /// `[{"user","kind"?,"area"?,"rule"?,"group"?,"trigger"?,"count"}]`.
    public func counters(area: String? = nil, kind: String? = nil) async throws(MusterClientError) -> [JSONValue] {
        var request = APIRequest("GET", ["counters"])
        request.query = [
            area.map { URLQueryItem(name: "area", value: $0) }, kind.map { URLQueryItem(name: "kind", value: $0) },
        ].compactMap { $0 }
        return try decode([JSONValue].self, from: try await perform(request), of: request)
    }

    /// A user's rule notifications on a day of their time zone (`GET /api/v1/quota/{user}`,
    /// administrators): `{"user","date","notifications","limit"?,"remaining"?}`.
    public func quota(user: String, date: String? = nil) async throws(MusterClientError) -> JSONValue {
        var request = APIRequest("GET", ["quota", user])
        request.query = [date.map { URLQueryItem(name: "date", value: $0) }].compactMap { $0 }
        return try decode(JSONValue.self, from: try await perform(request), of: request)
    }
}
