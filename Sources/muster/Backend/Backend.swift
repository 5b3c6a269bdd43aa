import EventLog
import Forms
import Foundation
import MQTTConnect
import Muster
import MusterWire

/// Where a domain verb acts: a data directory (``LocalBackend``) or a server as the logged-in user
/// (``ServerSession``). Each verb's `run()` is written once against this; ``BackendOptions`` picks one.
///
/// Both sides take and return the wire models, so a verb prints one shape whichever side answered.
protocol Backend: Sendable {
    /// The namespace the verb acts in: the one given, or over HTTP the login's.
    var namespace: String { get }

    /// Adds a user; `password` nil makes one who cannot log in (a data directory only).
    func addUser(_ user: User, password: String?) async throws -> UserEntry
    /// Whether setting `user`'s password takes their current one (over HTTP, one's own).
    func needsCurrentPassword(toChange user: String) -> Bool
    /// Sets `user`'s password anew; their sessions end (over HTTP, one's own but this one).
    func changePassword(of user: String, to password: String, current: String?) async throws -> UserEntry
    /// The users of the namespace.
    func users() async throws -> [UserEntry]
    /// Changes `user`'s profile: what `changes` names.
    func changeUser(_ user: String, _ changes: UserChanges) async throws -> UserEntry
    /// The open sessions of `user` (nil: over HTTP the logged-in user's, on a data directory everyone's), or of
    /// every user of the namespace.
    func sessions(of user: String?, all: Bool) async throws -> [OpenSession]
    /// Ends a session from elsewhere.
    func endSession(_ id: UUID) async throws
    /// Removes `user`: their sessions end, their devices are unregistered, they leave their groups.
    func removeUser(_ user: String) async throws -> UserRemoval
    /// Defines (or redefines) a group.
    func defineGroup(_ group: Group) async throws -> Group
    /// The groups of the namespace.
    func groups() async throws -> [Group]
    /// Removes a group; its members stay users.
    func removeGroup(_ name: String) async throws

    /// Registers (or updates) a device of `user` (nil: the logged-in user); `publishTopic` is an mqtt device's.
    func register(
        user: String?, deviceId: String, deviceName: String, platform: PushTarget.Platform, token: String?,
        publishTopic: String?
    ) async throws -> PushTarget
    /// The devices of `user`, or of everyone.
    func devices(user: String?) async throws -> [PushTarget]
    /// Unregisters a device of `user`.
    func unregister(deviceId: String, user: String?) async throws

    /// Configures (or reconfigures) a push source; the secret members of `body` go to the secret store.
    func configurePushSource(_ body: PushSourceBody) async throws -> PushSource
    /// The namespace's push sources, by name.
    func pushSources() async throws -> [PushSource]
    /// Removes a push source and erases its secret.
    func removePushSource(name: String) async throws
    /// Sends a test push through the source to each of `user`'s devices it reaches; what each provider answered.
    func testPushSource(name: String, user: String) async throws -> [PushTestResult]
    /// The namespace's deliveries, each filter optional.
    func deliveries(messageId: UUID?, user: String?, status: DeliveryRecord.Status?) async throws -> [DeliveryRecord]
    /// Asks the user's phones where they are: a silent push to each through the outbox.
    func requestLocation(user: String, reason: String?) async throws -> LocationRequest

    /// Creates or replaces geotrigger `id` from its JSON document; returns it as stored, with its `monitor`.
    func putGeotrigger(id: String, document: JSONValue) async throws -> JSONValue
    /// The namespace's geotriggers, by id, each with its `monitor`.
    func geotriggers() async throws -> [JSONValue]
    /// Removes a geotrigger.
    func removeGeotrigger(id: String) async throws
    /// Starts or stops the geotrigger's monitor; what it does now.
    func setGeotriggerMonitor(id: String, to monitor: GeotriggerMonitor.State) async throws -> GeotriggerMonitor

    /// Sends `payload` (JSON text) to the recipients; `dialog` is what their MQTT devices' DialogMessage shows
    /// beyond the payload.
    func send(
        title: String, body: String, payload: Data, to recipients: Recipients, source: String?, sender: String,
        dialog: DialogSenderSettings
    ) async throws -> SentNotification
    /// Withdraws messages not answered yet: they leave their recipients' inboxes.
    func withdraw(_ messageIds: [UUID]) async throws
    /// The namespace's sends, newest first, at most `limit` (older than `before` when given), each with where its
    /// messages stand in numbers.
    func sends(limit: Int, before: UUID?) async throws -> [SendOverview]
    /// One send with a page of its recipients' messages (at most `limit` from the `from`th, those in `state` when
    /// given) and where each stands; `.notFound` for no such send.
    func send(_ sendId: UUID, state: SendOverview.State?, from: Int, limit: Int) async throws -> SendOverview
    /// Withdraws every message of the send not answered yet, at once; `.notFound` for no such send.
    func withdrawPending(ofSend sendId: UUID) async throws -> SendWithdrawal
    /// The pending messages of `user`, oldest first.
    func inbox(user: String?) async throws -> [InboxItem]
    /// Answers a message, or with `request` a request template; `values` is a JSON object's text.
    func respond(_ answer: Answer) async throws -> ResponseObject
    /// The response objects and documents published on topics matching `filter`, as JSON lines.
    func listen(_ filter: TopicFilter, topic: String, from: UInt64?) async throws
        -> any AsyncSequence<[UInt8], any Error> & Sendable

    /// Stores a named payload (JSON text).
    func putPayload(name: String, payload: Data) async throws -> StoredPayload
    /// Every named payload of the namespace, by name.
    func payloads() async throws -> [NamedPayload]
    /// A named payload's JSON text.
    func payload(name: String) async throws -> String
    /// Stores a request template; `payload` is JSON text.
    func putRequest(name: String, title: String, body: String, topic: String, payload: Data) async throws
        -> RequestTemplate
    /// The request templates of the namespace.
    func requests() async throws -> [RequestTemplate]
    /// Removes a named payload: new sends can no longer name it.
    func removePayload(name: String) async throws
    /// Removes a request template: it is no longer offered or answered.
    func removeRequest(name: String) async throws

    /// Uploads a file as a document.
    func putDocument(file: URL, kind: MediaKind?, contentType: String?, user: String) async throws -> DocumentStored
    /// The documents `user` uploaded (nil: on a data directory everyone's, over HTTP the logged-in user's), newest
    /// first.
    func documents(user: String?) async throws -> [UploadedDocument]
    /// Writes a document's bytes to `output`, or to stdout when nil.
    func writeDocument(name: String, to output: String?) async throws
    /// Removes a document: nobody reads it by its name afterwards, and it no longer counts against the quotas.
    func removeDocument(name: String) async throws

    /// Sets a setting.
    func set(_ setting: Setting, to value: String) async throws -> NamespaceSetting
    /// Puts a setting back to its default.
    func reset(_ setting: Setting) async throws -> NamespaceSetting
    /// Every setting of the namespace.
    func settings() async throws -> [NamespaceSetting]

    /// The events `query` matches, in log order, handed to `each` until it returns false (over HTTP, of the login's
    /// namespace only).
    func events(_ query: EventQuery, _ each: (EventLine) throws -> Bool) async throws
    /// The events `query` matches, then each new one as it is recorded, until the consumer stops.
    func followEvents(_ query: EventQuery) async throws -> any AsyncSequence<EventLine, any Error> & Sendable

    /// The audit entries matching `filter`, oldest first, handed to `each` until it returns false.
    func audit(_ filter: Muster.Audit.Filter, _ each: (AuditLine) throws -> Bool) async throws
    /// The rules' event counters, of one area (of one kind) when given.
    func counters(area: String?, kind: Area.Kind?) async throws -> [RuleCounters.Counter]
    /// A user's rule notifications on a day.
    func quota(user: String, date: String?) async throws -> RuleCounters.QuotaReport

    /// A device's fix; what the rules decided.
    func locate(_ device: DeviceReportOptions, latitude: Double, longitude: Double, accuracy: Double?) async throws
        -> LocationAnswer
    /// A device's iBeacon sighting; what the rules decided.
    func sighted(
        _ device: DeviceReportOptions, uuid: String, major: Int, minor: Int, rssi: Int, txPower: Int,
        proximity: String?
    ) async throws -> LocationAnswer
    /// A raw iBeacon advertisement the device received (hex); what the rules decided.
    func advert(_ device: DeviceReportOptions, advert: String, rssi: Int) async throws -> LocationAnswer
    /// An entry or exit the device detected itself; what the rules decided.
    func transition(
        _ device: DeviceReportOptions, area: String, kind: Area.Kind?, trigger: String, latitude: Double?,
        longitude: Double?
    ) async throws -> LocationAnswer
    /// Defines the areas of an Ubudu document (JSON text), all or none.
    func importAreas(_ document: Data) async throws -> Areas.DefineResult
    /// The namespace's areas (geofences and beacon regions), by kind and id.
    func areas() async throws -> [Area]
    /// The device's position and the areas it monitors and is active in.
    func deviceAreas(user: String, deviceId: String) async throws -> DeviceAreas

    /// The area notifications waiting for the application on `user`'s device (nil: the logged-in user's),
    /// oldest first.
    func notices(user: String?, deviceId: String) async throws -> [AreaNotification]
    /// Does what the notice's rule would have done: sends the notification to the user, or calls the server
    /// notification URL and goes on with the rule. Once per notice.
    func performNotice(_ id: UUID, user: String?) async throws -> NoticeOutcome
    /// Records that the application dealt with the notice itself: nothing is sent. Once per notice.
    func dismissNotice(_ id: UUID, user: String?) async throws -> NoticeOutcome
    /// Whether the live stream of `user`'s device (nil: the logged-in user's) carries trace messages.
    func traceLogging(user: String?, deviceId: String) async throws -> DeviceTraceLogging
    /// Turns the device's trace logging on or off, or back to the namespace's setting (nil).
    func setTraceLogging(_ enabled: Bool?, user: String?, deviceId: String) async throws -> DeviceTraceLogging
}

/// An answer to a message or to a request template, as `muster respond` gives it.
struct Answer: Sendable {
    var messageId: UUID?
    var request: String?
    var user: String?
    var deviceId: String
    var deviceName: String?
    var submitValue: Int
    var values: Data
    var location: GeoPoint?
}

/// What uploading a document did.
struct DocumentStored: Encodable {
    var name: String
    var size: UInt64
    /// The content's SHA-256; nil over HTTP, where the server does not say.
    var blob: String?
}

/// One audit entry: its JSON line and its table cells.
struct AuditLine {
    var json: [UInt8]
    var cells: [String]
}
