import EventLog
import Foundation

extension Notifications {
    /// The response objects published on topics matching `filter`, as JSON text, as they are
    /// recorded — by this process or another one on the same data directory — until the consumer stops.
    /// - Parameter from: first log position to consider; nil for responses recorded from now on.
    public func listen(_ filter: TopicFilter, namespace: String = Names.defaultNamespace, from: UInt64? = nil)
        -> AsyncThrowingStream<Data, any Error>
    {
        let events = log.follow(
            EventQuery(namespace: namespace, type: ResponseReceived.type, from: from ?? (log.head + 1)))
        let (stream, continuation) = AsyncThrowingStream<Data, any Error>.makeStream(bufferingPolicy: .unbounded)
        let task = Task {
            do {
                for try await event in events {
                    guard let response = try ResponseReceived.decode(event) else { continue }
                    if filter.matches(response.responseTopic) { continuation.yield(Data(response.response)) }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
