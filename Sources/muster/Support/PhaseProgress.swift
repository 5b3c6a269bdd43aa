import EventLog
import Foundation
import Synchronization

/// Shows the progress of a multi-phase operation (backup, restore, verify): one `Progress` bar or
/// line series per phase, on stderr.
///
/// The operation calls it from its own thread, one call at a time; the mutex makes that explicit.
final class PhaseProgress: Sendable {
    private let label: String
    private let current = Mutex<(phase: String, progress: Progress)?>(nil)

    init(_ label: String) { self.label = label }

    /// The closure the EventLog operations take.
    var report: @Sendable (OperationProgress) -> Void { { [self] step in update(step) } }

    private func update(_ step: OperationProgress) {
        current.withLock { current in
            if current?.phase != step.phase {
                current = (step.phase, Progress("\(label) \(step.phase)"))
            }
            current!.progress.update(step.done, of: step.total, unit: step.unit)
        }
    }
}
