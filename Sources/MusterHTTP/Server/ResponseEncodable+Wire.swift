import Hummingbird
import Muster
import MusterWire

// The wire's models and the domain's answers are returned by the routes as they are; the context's
// `responseEncoder` writes them.

extension User: ResponseEncodable {}
extension Message: ResponseEncodable {}
extension Group: ResponseEncodable {}
extension UserRemoval: ResponseEncodable {}
extension OpenSession: ResponseEncodable {}
extension NamedPayload: ResponseEncodable {}
extension UploadedDocument: ResponseEncodable {}
extension NamespaceSetting: ResponseEncodable {}
extension SentNotification: ResponseEncodable {}
extension StoredPayload: ResponseEncodable {}
extension RequestTemplate: ResponseEncodable {}
extension ServerInfo: ResponseEncodable {}
extension Verification: ResponseEncodable {}
extension LocationAnswer: ResponseEncodable {}
extension PushTarget: ResponseEncodable {}
extension Sessions.Tokens: ResponseEncodable {}
extension RuleCounters.QuotaReport: ResponseEncodable {}
extension PushSource: ResponseEncodable {}
extension PushTestResult: ResponseEncodable {}
extension VAPIDPublicKey: ResponseEncodable {}
extension DeliveryRecord: ResponseEncodable {}
extension SendOverview: ResponseEncodable {}
extension SendWithdrawal: ResponseEncodable {}
extension MessagesWithdrawn: ResponseEncodable {}
extension LocationRequest: ResponseEncodable {}
extension MQTTStatus: ResponseEncodable {}
extension MQTTSettingsAnswer: ResponseEncodable {}
extension DeviceAreas: ResponseEncodable {}
extension GeotriggerMonitor: ResponseEncodable {}
extension AreaNotification: ResponseEncodable {}
extension NoticeOutcome: ResponseEncodable {}
extension DeviceTraceLogging: ResponseEncodable {}
