import NATSTesting

extension NATSCluster {
    /// Starts `count` nats-servers, runs `body` with them, and stops them whether it returned or threw.
    static func running<T>(servers count: Int, _ body: (NATSCluster) async throws -> T) async throws -> T {
        let servers = try await NATSCluster(servers: count)
        do {
            let result = try await body(servers)
            await servers.stopAll()
            return result
        } catch {
            await servers.stopAll()
            throw error
        }
    }
}
