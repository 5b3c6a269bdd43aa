import Foundation
import MQTTConnect
import Muster
import Synchronization

/// The settings receipts `muster mqtt settings` waits for. The app sends one receipt per settings message, so one
/// receipt answers one command: the oldest command waiting on the device whose settings the receipt shows applied
/// (each setting it gave has that value in the receipt), else the oldest waiting (a device that kept a value of its
/// own). Commands sent to one device at the same time each get their own receipt, not the first one.
final class Receipts: Sendable {
    /// One command's expectation, from before its settings message is published.
    struct Ticket: Sendable {
        fileprivate let id: UUID
        fileprivate let key: String
    }

    private enum Stage {
        /// Published, not yet waited on: a receipt arriving now is kept for `wait`.
        case expecting
        case waiting(CheckedContinuation<DeviceSettings?, Never>)
        case answered(DeviceSettings)
    }

    private struct Waiter {
        let id: UUID
        let requested: DeviceSettings
        var stage: Stage
    }

    private let waiting = Mutex<[String: [Waiter]]>([:])

    /// Expects a receipt from `device` for `requested`; call before publishing, so no receipt is missed.
    func expect(_ requested: DeviceSettings, from device: MQTTDevice) -> Ticket {
        let ticket = Ticket(id: UUID(), key: Self.key(device))
        waiting.withLock {
            $0[ticket.key, default: []].append(Waiter(id: ticket.id, requested: requested, stage: .expecting))
        }
        return ticket
    }

    /// The receipt that answers `ticket`, or nil when none comes within `timeout`.
    func wait(for ticket: Ticket, within timeout: Duration) async -> DeviceSettings? {
        await withCheckedContinuation { continuation in
            let ready = waiting.withLock { all -> DeviceSettings?? in
                guard var waiters = all[ticket.key], let index = waiters.firstIndex(where: { $0.id == ticket.id })
                else { return .some(nil) }
                if case .answered(let settings) = waiters[index].stage {
                    waiters.remove(at: index)
                    all[ticket.key] = waiters.isEmpty ? nil : waiters
                    return .some(settings)
                }
                waiters[index].stage = .waiting(continuation)
                all[ticket.key] = waiters
                return nil
            }
            if let ready {
                continuation.resume(returning: ready)
                return
            }
            Task {
                try? await Task.sleep(for: timeout)
                self.cancel(ticket)
            }
        }
    }

    /// Gives up `ticket` (its message was not published, or its time is up): a command waiting on it gets nil, and a
    /// later receipt answers another command.
    func cancel(_ ticket: Ticket) {
        let waiter = waiting.withLock { all -> Waiter? in
            guard var waiters = all[ticket.key], let index = waiters.firstIndex(where: { $0.id == ticket.id })
            else { return nil }
            let waiter = waiters.remove(at: index)
            all[ticket.key] = waiters.isEmpty ? nil : waiters
            return waiter
        }
        if case .waiting(let continuation) = waiter?.stage { continuation.resume(returning: nil) }
    }

    /// A receipt arrived from `device`: it answers one command (see the type).
    func received(_ settings: DeviceSettings, from device: MQTTDevice) {
        let key = Self.key(device)
        let answered = waiting.withLock { all -> CheckedContinuation<DeviceSettings?, Never>? in
            guard var waiters = all[key] else { return nil }
            let open = waiters.indices.filter {
                if case .answered = waiters[$0].stage { false } else { true }
            }
            guard let index = open.first(where: { waiters[$0].requested.isApplied(in: settings) }) ?? open.first
            else { return nil }
            guard case .waiting(let continuation) = waiters[index].stage else {
                waiters[index].stage = .answered(settings)
                all[key] = waiters
                return nil
            }
            waiters.remove(at: index)
            all[key] = waiters.isEmpty ? nil : waiters
            return continuation
        }
        answered?.resume(returning: settings)
    }

    private static func key(_ device: MQTTDevice) -> String {
        "\(device.namespace)\u{0}\(device.user)\u{0}\(device.deviceId)"
    }
}

extension DeviceSettings {
    /// Whether every setting given here has the same value in `receipt`.
    func isApplied(in receipt: DeviceSettings) -> Bool {
        func same<Value: Equatable>(_ path: KeyPath<DeviceSettings, Value?>) -> Bool {
            self[keyPath: path].map { $0 == receipt[keyPath: path] } ?? true
        }
        return same(\.subscribeTopic) && same(\.publishTopic) && same(\.onIncoming) && same(\.onInterval)
            && same(\.intervalOnChange) && same(\.onThreshold) && same(\.intervalCycle) && same(\.thresholdValue)
    }
}
