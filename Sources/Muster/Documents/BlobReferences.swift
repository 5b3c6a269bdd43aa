import EventLog

extension MusterDomain {
    /// The blob an event names — a document's content (`DocumentUploaded`) — which must reach a replica of a cluster
    /// with the event; none for every other event, or one whose body does not decode.
    public static let blobReferences: @Sendable (RecordedEvent) -> [BlobID] = { event in
        guard event.type == DocumentUploaded.type, let uploaded = try? DocumentUploaded.decode(event),
            let id = BlobID(hex: uploaded.blob)
        else { return [] }
        return [id]
    }
}
