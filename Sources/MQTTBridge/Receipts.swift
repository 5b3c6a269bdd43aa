import Foundation
import MQTTConnect
import Muster
import Synchronization

/// The settings receipts `muster mqtt settings` waits for: the next receipt a device publishes answers every
/// command waiting on that device.
final class Receipts: Sendable {
    private typealias Waiter = (id: UUID, continuation: CheckedContinuation<DeviceSettings?, Never>)
    private let waiting = Mutex<[String: [Waiter]]>([:])

    /// The device's next receipt, or nil when none comes within `timeout`.
    func next(from device: MQTTDevice, within timeout: Duration) async -> DeviceSettings? {
        let key = Self.key(device)
        let id = UUID()
        return await withCheckedContinuation { continuation in
            waiting.withLock { $0[key, default: []].append((id, continuation)) }
            Task {
                try? await Task.sleep(for: timeout)
                let expired = self.waiting.withLock { waiting -> Waiter? in
                    guard let index = waiting[key]?.firstIndex(where: { $0.id == id }) else { return nil }
                    return waiting[key]?.remove(at: index)
                }
                expired?.continuation.resume(returning: nil)
            }
        }
    }

    /// A receipt arrived from `device`: every command waiting on it gets it.
    func received(_ settings: DeviceSettings, from device: MQTTDevice) {
        let waiters = waiting.withLock { $0.removeValue(forKey: Self.key(device)) ?? [] }
        for waiter in waiters { waiter.continuation.resume(returning: settings) }
    }

    private static func key(_ device: MQTTDevice) -> String {
        "\(device.namespace)\u{0}\(device.user)\u{0}\(device.deviceId)"
    }
}
