import Foundation
import Hummingbird
import Synchronization

/// An answer a local APNs or FCM gives in place of its normal one, to test how a provider takes failures.
public enum StandInFault: Sendable, Hashable {
    /// Answers `status` with the JSON `body` and, when given, a `Retry-After` header.
    case answer(status: Int, body: String, retryAfter: String? = nil)
    /// Never answers: the request waits until the server stops.
    case neverAnswer

    /// An APNs refusal: `{"reason": "Unregistered"}`.
    public static func apns(_ status: Int, reason: String, retryAfter: String? = nil) -> StandInFault {
        .answer(status: status, body: #"{"reason":"\#(reason)"}"#, retryAfter: retryAfter)
    }

    /// An FCM refusal: `{"error": {"code", "message", "status", "details": [{"errorCode"}]}}`.
    public static func fcm(
        _ code: Int, status: String, message: String, errorCode: String? = nil, retryAfter: String? = nil
    ) -> StandInFault {
        let details =
            errorCode.map {
                #","details":[{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"\#($0)"}]"#
            } ?? ""
        return .answer(
            status: code,
            body: #"{"error":{"code":\#(code),"message":"\#(message)","status":"\#(status)"\#(details)}}"#,
            retryAfter: retryAfter)
    }

    /// The response of an `.answer`.
    var response: Response? {
        guard case .answer(let status, let body, let retryAfter) = self else { return nil }
        var headers: HTTPFields = [.contentType: "application/json"]
        if let retryAfter { headers[.retryAfter] = retryAfter }
        return Response(
            status: .init(code: status), headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}

/// What a local provider received, the faults it still has to give, and who waits for what.
final class StandInLog<Record: Sendable>: Sendable {
    private struct State {
        var records: [Record] = []
        var faults: [StandInFault] = []
        var waiters: [(id: UUID, count: Int, continuation: CheckedContinuation<[Record], Never>)] = []
        var held: [CheckedContinuation<Void, Never>] = []
        var stopped = false
    }
    private let state = Mutex(State())

    /// Adds faults to give, in order, before answering normally again.
    func inject(_ faults: [StandInFault]) {
        state.withLock { $0.faults += faults }
    }

    /// The next fault to give, if any is left.
    func nextFault() -> StandInFault? {
        state.withLock { $0.faults.isEmpty ? nil : $0.faults.removeFirst() }
    }

    /// Keeps a record and wakes those waiting for this many.
    func record(_ record: Record) {
        let ready = state.withLock { state in
            state.records.append(record)
            let records = state.records
            let ready = state.waiters.filter { $0.count <= records.count }.map { ($0.continuation, records) }
            state.waiters.removeAll { $0.count <= records.count }
            return ready
        }
        for (continuation, records) in ready { continuation.resume(returning: records) }
    }

    var records: [Record] { state.withLock { $0.records } }

    /// The records once there are at least `count`, or those there are when the waiting task is cancelled.
    func wait(for count: Int) async -> [Record] {
        let id = UUID()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let records: [Record]? = state.withLock { state in
                    if state.records.count >= count || Task.isCancelled { return state.records }
                    state.waiters.append((id, count, continuation))
                    return nil
                }
                if let records { continuation.resume(returning: records) }
            }
        } onCancel: {
            let waiting = state.withLock { state in
                let waiting = state.waiters.first { $0.id == id }.map { ($0.continuation, state.records) }
                state.waiters.removeAll { $0.id == id }
                return waiting
            }
            if let (continuation, records) = waiting { continuation.resume(returning: records) }
        }
    }

    /// Returns only once the server stops (a request never answered).
    func hold() async {
        await withCheckedContinuation { continuation in
            let stopped = state.withLock { state in
                if !state.stopped { state.held.append(continuation) }
                return state.stopped
            }
            if stopped { continuation.resume() }
        }
    }

    /// Lets held requests go, so the server can close.
    func stop() {
        let held = state.withLock { state in
            state.stopped = true
            defer { state.held = [] }
            return state.held
        }
        for continuation in held { continuation.resume() }
    }
}
