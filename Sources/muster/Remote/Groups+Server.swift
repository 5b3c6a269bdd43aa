import Foundation
import Muster
import MusterClient

extension Groups.Add {
    /// `PUT /api/v1/groups/{name}` (administrators).
    func run(on session: ServerSession, members: [String]) async throws {
        try session.requireNamespace(namespace)
        let group = try await session.call { try await $0.defineGroup(name: name, members: members) }
        try Output.json(GroupDefined(name: group.name, members: group.members))
    }
}

extension Groups.List {
    /// `GET /api/v1/groups` (administrators).
    func run(on session: ServerSession) async throws {
        try session.requireNamespace(namespace)
        let groups = try await session.call { try await $0.groups() }
        try Self.print(groups.map { GroupDefined(name: $0.name, members: $0.members) }, json: json)
    }
}
