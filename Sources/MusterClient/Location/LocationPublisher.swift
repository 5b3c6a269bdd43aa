import Foundation

/// Publishes the device's position in the background (the seed's `publishCurrentLocation:` on a timer and its
/// `locationManager:didUpdateLocations:`): each fix of a ``LocationSource`` that the ``LocationThrottle`` admits goes
/// to the server as ``MusterClient/publishCurrentLocation(deviceId:latitude:longitude:accuracy:at:)``.
///
/// ```swift
/// let publisher = LocationPublisher(client: client, deviceId: "anna-phone", source: coreLocation)
/// let publishing = Task { await publisher.run() }
/// …
/// await publisher.stop()
/// ```
///
/// A fix's time is its `timestamp`, or the clock's when it has none. A fix the server could not take (no
/// connection, throttled) is not counted as published, so the next fix is tried; an error that needs a new login
/// ends the run, with the error in ``lastError``.
public actor LocationPublisher {
    /// The client the fixes are published through; it must be logged in.
    public let client: MusterClient
    /// The device the fixes are published for.
    public let deviceId: String
    /// When a fix is published.
    public let throttle: LocationThrottle
    private let source: any LocationSource
    private let now: @Sendable () -> Date
    private var running: Task<Void, Never>?

    /// The last fix published, and when.
    public private(set) var lastPublished: (fix: LocationFix, at: Date)?
    /// How many fixes were published.
    public private(set) var publishedCount = 0
    /// How many fixes the throttle held back.
    public private(set) var skippedCount = 0
    /// The last failure to publish; nil after a success.
    public private(set) var lastError: MusterClientError?

    /// A publisher of `source`'s fixes for `deviceId`.
    ///
    /// - Parameters:
    ///   - throttle: at most every 60 s and after moving more than 50 m, unless given.
    ///   - now: the clock for fixes without a timestamp.
    public init(
        client: MusterClient, deviceId: String, source: any LocationSource, throttle: LocationThrottle = .init(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.client = client
        self.deviceId = deviceId
        self.source = source
        self.throttle = throttle
        self.now = now
    }

    /// Publishes fixes until the source ends, ``stop()`` is called or the calling task is cancelled. A second call
    /// while one runs returns at once.
    public func run() async {
        guard running == nil else { return }
        let loop = Task { await publishAll() }
        running = loop
        await withTaskCancellationHandler {
            await loop.value
        } onCancel: {
            loop.cancel()
        }
        running = nil
    }

    /// Stops publishing: a report in flight is cancelled, the source's stream is ended, and ``run()`` returns.
    public func stop() async {
        guard let running else { return }
        running.cancel()
        await running.value
    }

    private func publishAll() async {
        for await fix in source.fixes() {
            let time = fix.timestamp ?? now()
            guard throttle.admits(fix, at: time, after: lastPublished?.fix, at: lastPublished?.at) else {
                skippedCount += 1
                continue
            }
            do {
                _ = try await client.publishCurrentLocation(
                    deviceId: deviceId, latitude: fix.latitude, longitude: fix.longitude, accuracy: fix.accuracy,
                    at: time)
                lastPublished = (fix, time)
                publishedCount += 1
                lastError = nil
            } catch {
                lastError = error
                if error.requiresLogin || error.code == .cancelled { return }
            }
        }
    }
}
