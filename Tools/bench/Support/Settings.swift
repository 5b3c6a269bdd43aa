/// Sizes and durations every scenario reads; `--smoke` shrinks them all.
struct Settings: Sendable {
    /// How long each timed loop runs.
    var seconds: Double
    /// Events in the rebuild scenario's log.
    var events: Int
    /// Size the backup scenario fills its data directory to.
    var backupMegabytes: Int
    /// Size of each file the blob scenario compresses.
    var blobMegabytes: Int
    /// Concurrent appenders in the durable-append scenario.
    var appenders: Int
    /// Bytes of each event body.
    var bodySize: Int
    var smoke: Bool
}
