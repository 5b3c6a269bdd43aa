import Synchronization

/// Failed logins remembered in memory, to slow down guessing without locking anyone out.
///
/// Two counts: per (namespace, user name, client address), and per client address over all names.
/// Once a count reaches its limit, each further attempt waits for a delay that doubles with every
/// failure (1 s, 2 s, 4 s … up to `maximumDelay`). A login from an address that has not failed is
/// never refused, and nothing is stored: a restart forgets the counts, and no one can lock an
/// account for the people who know its password.
///
/// An attempt is counted when it starts, as a failure until it succeeds: concurrent guesses cannot
/// all pass before the first of them is counted.
final class LoginThrottle: Sendable {
    /// Limits in the store's time (microseconds).
    struct Limits: Sendable, Hashable {
        var perName: Int
        var perAddress: Int
        var firstDelay: Int64
        var maximumDelay: Int64
        /// How long after its last failure (and the end of its wait) a count is forgotten.
        var memory: Int64
    }

    private struct Count {
        var failures = 0
        /// No attempt before this time.
        var waitUntil: Int64 = 0
        var lastFailure: Int64 = 0

        func isForgotten(at now: Int64, memory: Int64) -> Bool {
            now >= waitUntil && now - lastFailure >= memory
        }

        /// Counts an attempt; from `limit` failures on, the next attempt waits.
        mutating func count(at now: Int64, limit: Int, limits: Limits) {
            failures += 1
            lastFailure = now
            guard failures >= limit else { return }
            let doublings = min(failures - limit, 40)
            let delay =
                limits.firstDelay > limits.maximumDelay >> doublings
                ? limits.maximumDelay : limits.firstDelay << doublings
            waitUntil = now + delay
        }
    }

    private struct State {
        var byName: [String: Count] = [:]
        var byAddress: [String: Count] = [:]
    }

    /// Entries kept per table before forgotten ones are dropped (and, past it still, all of them).
    static let capacity = 100_000

    let limits: Limits
    private let state = Mutex(State())

    init(_ limits: Limits) { self.limits = limits }

    /// Starts an attempt: the seconds to wait when one of its counts says so (nothing is counted
    /// then), else nil and the attempt counts as a failure until `succeeded`.
    func begin(namespace: String, user: String, address: String, now: Int64) -> Int? {
        let nameKey = Self.key(namespace, user, address)
        let limits = self.limits
        return state.withLock { state in
            Self.prune(&state.byName, now: now, memory: limits.memory)
            Self.prune(&state.byAddress, now: now, memory: limits.memory)
            var name = state.byName[nameKey].flatMap { $0.isForgotten(at: now, memory: limits.memory) ? nil : $0 }
            var byAddress = state.byAddress[address].flatMap {
                $0.isForgotten(at: now, memory: limits.memory) ? nil : $0
            }
            let waitUntil = max(name?.waitUntil ?? 0, byAddress?.waitUntil ?? 0)
            if waitUntil > now { return max(1, Int((Double(waitUntil - now) / 1_000_000).rounded(.up))) }
            if limits.perName > 0 {
                name = name ?? Count()
                name?.count(at: now, limit: limits.perName, limits: limits)
                state.byName[nameKey] = name
            }
            if limits.perAddress > 0 {
                byAddress = byAddress ?? Count()
                byAddress?.count(at: now, limit: limits.perAddress, limits: limits)
                state.byAddress[address] = byAddress
            }
            return nil
        }
    }

    /// The attempt succeeded: the name's count starts again, and the address's no longer counts it.
    func succeeded(namespace: String, user: String, address: String) {
        let nameKey = Self.key(namespace, user, address)
        let limits = self.limits
        state.withLock { state in
            state.byName[nameKey] = nil
            guard var count = state.byAddress[address] else { return }
            count.failures -= 1
            if count.failures < limits.perAddress { count.waitUntil = 0 }
            state.byAddress[address] = count.failures > 0 ? count : nil
        }
    }

    private static func key(_ namespace: String, _ user: String, _ address: String) -> String {
        "\(namespace)\u{0}\(user)\u{0}\(address)"
    }

    /// Bounds the memory an attacker with many addresses or names can take.
    private static func prune(_ table: inout [String: Count], now: Int64, memory: Int64) {
        guard table.count >= capacity else { return }
        table = table.filter { !$0.value.isForgotten(at: now, memory: memory) }
        if table.count >= capacity { table.removeAll(keepingCapacity: true) }
    }
}
