import EventLog
import Foundation

/// Groups: named sets of users a send may name.
extension Directory {
    /// Defines (or redefines) a group. Every member must be a user of the namespace; duplicates are
    /// dropped, keeping the first.
    @discardableResult
    public func defineGroup(
        _ name: String, members: [String], namespace: String = Names.defaultNamespace, actor: String = "system"
    ) async throws -> GroupDefined {
        try Names.validate(name, as: "group name")
        var seen = Set<String>()
        let group = GroupDefined(name: name, members: members.filter { seen.insert($0).inserted })
        try await log.perform { scope in
            let directory = try scope.directory
            let unknown = try group.members.filter { try directory.user($0, namespace: namespace) == nil }
            guard unknown.isEmpty else {
                throw MusterError(
                    .invalidArgument,
                    "group \(name): no user named \(unknown.joined(separator: ", ")) in namespace \(namespace); add them first (muster users add)"
                )
            }
            try scope.append(
                AppendRequest(namespace: namespace, stream: Streams.group(name), events: [group.newEvent(actor: actor)])
            )
        }
        return group
    }

    /// Removes a group; returns it as it was. Fails with `.notFound` for a group the namespace does not have.
    @discardableResult
    public func removeGroup(_ name: String, namespace: String = Names.defaultNamespace, actor: String = "system")
        async throws -> GroupDefined
    {
        try await log.perform { scope in
            try scope.remove(
                try scope.directory.group(name, namespace: namespace),
                else: "no group named \(name) in namespace \(namespace); see muster groups list",
                recording: GroupRemoved(name: name), in: Streams.group(name), namespace: namespace, actor: actor)
        }
    }

    /// Every group of the namespace, by name.
    public func groups(namespace: String = Names.defaultNamespace) throws -> [GroupDefined] {
        try log.read { try $0.directory.groups(namespace: namespace) }
    }
}
