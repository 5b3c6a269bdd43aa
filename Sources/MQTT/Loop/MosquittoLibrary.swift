import CMosquitto

/// libmosquitto's process-wide setup: `mosquitto_lib_init` runs once, the first time a client is made, and is
/// never undone (`mosquitto_lib_cleanup` would pull the library from under clients still alive).
enum MosquittoLibrary {
    private static let initialised: Int32 = mosquitto_lib_init()

    /// Runs `mosquitto_lib_init` if no client did before; throws when it failed.
    static func initialise() throws {
        let rc = initialised
        if rc != MOSQ_ERR_SUCCESS.rawValue { throw MQTTError.library(rc, "mosquitto_lib_init") }
    }
}
