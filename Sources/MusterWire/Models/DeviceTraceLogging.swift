import Foundation

/// Whether a device's live stream carries the rules' decisions not to act (`trace` events): the device's own
/// choice, the namespace's `traceLogging` setting, and what follows from them.
public struct DeviceTraceLogging: Sendable, Hashable, Codable {
    public var deviceId: String
    /// The device's own choice; nil when it follows the namespace.
    public var device: Bool?
    /// The namespace's `traceLogging` setting.
    public var namespace: Bool
    /// What the device's stream does: `device`, else `namespace` (a stream opened with `trace=` overrides it).
    public var effective: Bool

    /// Creates the answer from its parts.
    public init(deviceId: String, device: Bool?, namespace: Bool, effective: Bool) {
        self.deviceId = deviceId
        self.device = device
        self.namespace = namespace
        self.effective = effective
    }

    private enum CodingKeys: String, CodingKey { case deviceId, device, namespace, effective }

    /// Writes `device` as null when the device follows the namespace (never left out).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(deviceId, forKey: .deviceId)
        try c.encode(device, forKey: .device)
        try c.encode(namespace, forKey: .namespace)
        try c.encode(effective, forKey: .effective)
    }
}

/// The body of `PUT /api/v1/devices/{id}/trace-logging`: `{"enabled": true | false | null}`, null to follow the
/// namespace's setting again. The member must be there: an empty body changes nothing by accident.
public struct TraceLoggingBody: Sendable, Hashable, Codable {
    public var enabled: Bool?

    /// Creates the body.
    public init(enabled: Bool?) { self.enabled = enabled }

    private enum CodingKeys: String, CodingKey { case enabled }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        guard c.contains(.enabled) else {
            throw DecodingError.keyNotFound(
                CodingKeys.enabled,
                .init(codingPath: [], debugDescription: "enabled: give true, false, or null to follow the namespace"))
        }
        enabled = try c.decodeNil(forKey: .enabled) ? nil : c.decode(Bool.self, forKey: .enabled)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(enabled, forKey: .enabled)
    }
}
