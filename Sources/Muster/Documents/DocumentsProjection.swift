import EventLog

/// Every uploaded document by name, kept inline so a name is found in one read.
///
/// Table `documents`: `namespace 0 name 0` → `DocumentUploaded` body (blob id, kind, size,
/// content type, uploader).
public struct DocumentsProjection: Projection {
    public static let name = "documents"
    public var name: String { Self.name }
    public var version: UInt32 { 1 }
    public var mode: ProjectionMode { .inline }
    public var tables: [String] { ["documents"] }

    public init() {}

    public func apply(_ event: RecordedEvent, to state: ProjectionState) throws {
        guard let document = try DocumentUploaded.decode(event) else { return }
        try state.put("documents", DirectoryProjection.key(event.namespace, document.name), event.body.bytes)
    }
}
