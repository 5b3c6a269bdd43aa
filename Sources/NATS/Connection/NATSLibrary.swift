import CNATS

/// libnats' process-wide setup: `nats_Open` runs once, the first time a connection is made, and is never undone
/// (`nats_Close` would pull the library from under every connection of the process, and is called by nobody here).
enum NATSLibrary {
    private static let opened: natsStatus = nats_Open(-1)

    /// Runs `nats_Open` if no connection did before. A failure shows at once in the connect that follows (libnats
    /// opens itself there too, and reports why).
    static func open() {
        _ = opened
    }
}
