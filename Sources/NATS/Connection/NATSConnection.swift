import CNATS
import Foundation
import Logging

/// One connection to NATS through libnats, with its JetStream context: streams, acknowledged publishes, readers and
/// key-value buckets all go through it.
///
/// Make it with `connect(_:logger:)`; it reconnects by itself, forever, after any loss (watch `state` or
/// `stateUpdates()`); `close()` ends it. Every call that waits for a server runs on a thread of `CallThreads`, never
/// on the cooperative pool, and is bounded by a timeout.
///
/// Thread use of the C handles: libnats makes `natsConnection` and `jsCtx` safe to call from any thread, and the calls
/// come from `CallThreads`' threads, several at once. Both are destroyed once, in `deinit`, when no call can be
/// running any more (each call holds the connection); `KeyValueBucket` and `StreamReader` hold the connection too, so
/// their C objects are gone before it.
public final class NATSConnection: @unchecked Sendable {
    /// The configuration it was made with.
    public let configuration: NATSConfiguration
    /// `natsConnection *`.
    let handle: OpaquePointer
    /// `jsCtx *`, with `configuration.requestTimeout` as its default wait.
    let jetStream: OpaquePointer
    private let events: ConnectionEvents

    private init(
        configuration: NATSConfiguration, handle: OpaquePointer, jetStream: OpaquePointer, events: ConnectionEvents
    ) {
        self.configuration = configuration
        self.handle = handle
        self.jetStream = jetStream
        self.events = events
    }

    /// Connects to one of the configured servers (tried in random order until one answers).
    ///
    /// Throws `unavailable` when none could be reached within `connectTimeout` each (the connection does not keep
    /// trying then: call again), `refused` when the server refused the credentials, `invalidArgument` for a bad URL.
    ///
    /// - Parameter logger: where losses, reconnects and the errors no call returns (a slow reader, a consumer
    ///   libnats failed to make again) are logged.
    public static func connect(
        _ configuration: NATSConfiguration, logger: Logger = Logger(label: "muster.nats")
    ) async throws -> NATSConnection {
        try configuration.validate()
        let events = ConnectionEvents(logger: logger, address: configuration.address)
        let (handle, jetStream) = try await CallThreads.shared.run {
            try openConnection(configuration, events: events)
        }
        return NATSConnection(
            configuration: configuration, handle: handle.pointer, jetStream: jetStream.pointer, events: events)
    }

    /// The connection state now.
    public var state: NATSConnectionState { events.connection }

    /// How often the connection came back after a loss.
    public var reconnects: Int { events.reconnects }

    /// The current state, then each change until the connection is closed.
    public func stateUpdates() -> AsyncStream<NATSConnectionState> {
        events.updates()
    }

    /// The URL of the server connected to now (without credentials), or nil while reconnecting or closed.
    public var connectedServer: String? {
        var buffer = [CChar](repeating: 0, count: 512)
        guard natsConnection_GetConnectedUrl(handle, &buffer, buffer.count) == NATS_OK, buffer[0] != 0 else {
            return nil
        }
        let url = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return NATSConfiguration.withoutCredentials(url)
    }

    /// Closes the connection: flushes what is buffered (for at most half a second), fails the calls still waiting
    /// with `closed`, and ends libnats' threads for it. Later calls fail with `closed`.
    public func close() async {
        let handle = Handle(handle)
        events.closing()
        _ = try? await CallThreads.shared.run { natsConnection_Close(handle.pointer) }
        // libnats reports "closed" from its own thread a little later; closed is closed now.
        events.set(.closed)
    }

    deinit {
        // Destroying an open connection closes it first, which may wait for a flush: not on this thread.
        let handle = Handle(handle)
        let jetStream = Handle(jetStream)
        CallThreads.shared.detach {
            jsCtx_Destroy(jetStream.pointer)
            natsConnection_Destroy(handle.pointer)
        }
    }

    /// Runs `call` on a thread of `CallThreads`, keeping the connection alive meanwhile.
    func blocking<T: Sendable>(_ call: @escaping @Sendable (NATSConnection) throws -> T) async throws -> T {
        try await CallThreads.shared.run { try call(self) }
    }

    /// Throws the `NATSError` of a failed call, with the configuration's secrets kept out of its text.
    func check(
        _ status: natsStatus, _ what: @autoclosure () -> String, call: String, jetStreamCode: jsErrCode = jsErrCode(0)
    ) throws {
        try NATS.check(status, what(), call: call, jetStreamCode: jetStreamCode, secrets: configuration.secrets)
    }

    /// The blocking part of `connect`: options, connection, JetStream context. On a thread of `CallThreads`.
    private static func openConnection(
        _ configuration: NATSConfiguration, events: ConnectionEvents
    ) throws -> (Handle, Handle) {
        NATSLibrary.open()
        let what = "connecting to NATS at \(configuration.address)"
        let secrets = configuration.secrets
        var options: OpaquePointer?
        try NATS.check(natsOptions_Create(&options), what, call: "natsOptions_Create")
        defer { natsOptions_Destroy(options) }
        try configure(options!, configuration, what: what)
        try events.install(on: options!)
        var connection: OpaquePointer?
        let status = natsConnection_Connect(&connection, options)
        guard status == NATS_OK, let connection else {
            events.releaseUnused()
            throw NATSError(what, call: "natsConnection_Connect", status: status, secrets: secrets)
        }
        var jsOptions = jsOptions()
        jsOptions_Init(&jsOptions)
        jsOptions.Wait = configuration.requestTimeout.milliseconds
        var context: OpaquePointer?
        let jsStatus = natsConnection_JetStream(&context, connection, &jsOptions)
        guard jsStatus == NATS_OK, let context else {
            let error = NATSError(what, call: "natsConnection_JetStream", status: jsStatus, secrets: secrets)
            natsConnection_Destroy(connection)
            throw error
        }
        return (Handle(connection), Handle(context))
    }

    /// Applies the configuration to libnats' options.
    private static func configure(_ options: OpaquePointer, _ configuration: NATSConfiguration, what: String) throws {
        var servers = configuration.servers.map { strdup($0) }
        defer { servers.forEach { free($0) } }
        let serversStatus = servers.withUnsafeMutableBufferPointer { pointers in
            pointers.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: pointers.count) {
                natsOptions_SetServers(options, $0, Int32(pointers.count))
            }
        }
        let secrets = configuration.secrets
        try NATS.check(serversStatus, what, call: "natsOptions_SetServers", secrets: secrets)
        let settings: [(natsStatus, String)] = [
            (natsOptions_SetName(options, configuration.name), "natsOptions_SetName"),
            (natsOptions_SetTimeout(options, configuration.connectTimeout.milliseconds), "natsOptions_SetTimeout"),
            (natsOptions_SetAllowReconnect(options, true), "natsOptions_SetAllowReconnect"),
            // Forever: a replica outlives any outage of NATS.
            (natsOptions_SetMaxReconnect(options, -1), "natsOptions_SetMaxReconnect"),
            (
                natsOptions_SetReconnectWait(options, configuration.reconnectWait.milliseconds),
                "natsOptions_SetReconnectWait"
            ),
            (
                natsOptions_SetPingInterval(options, configuration.pingInterval.milliseconds),
                "natsOptions_SetPingInterval"
            ),
            (natsOptions_SetMaxPingsOut(options, 2), "natsOptions_SetMaxPingsOut"),
            // A request whose connection is lost fails at once (`unavailable`) instead of waiting out its timeout.
            (natsOptions_SetFailRequestsOnDisconnect(options, true), "natsOptions_SetFailRequestsOnDisconnect"),
        ]
        for (status, call) in settings {
            try NATS.check(status, what, call: call, secrets: secrets)
        }
        if let tls = configuration.tls {
            try NATS.check(natsOptions_SetSecure(options, true), what, call: "natsOptions_SetSecure", secrets: secrets)
            try NATS.check(
                natsOptions_LoadCATrustedCertificates(options, tls.caFile), "\(what): reading \(tls.caFile)",
                call: "natsOptions_LoadCATrustedCertificates", secrets: secrets)
            if let certificate = tls.certificateFile, let key = tls.keyFile {
                try NATS.check(
                    natsOptions_LoadCertificatesChain(options, certificate, key),
                    "\(what): reading \(certificate) and \(key)", call: "natsOptions_LoadCertificatesChain",
                    secrets: secrets)
            }
        }
        if let userName = configuration.userName {
            // Named in an error only by the call, never with the password.
            try NATS.check(
                natsOptions_SetUserInfo(options, userName, configuration.password), what,
                call: "natsOptions_SetUserInfo", secrets: secrets)
        }
    }
}

/// A C pointer handed between threads; the owner of the object it points to says who may use it when.
struct Handle: @unchecked Sendable {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
}
