import EventLog
import HTTPTypes
import Muster
import Testing

@testable import MusterHTTP

/// The one mapping of a refusal to the API's answer: status, code and the field it concerns.
struct ErrorTranslationTests {
    @Test(arguments: [
        (MusterError.Code.invalidArgument, 400, "bad_request"), (.notFound, 404, "not_found"),
        (.conflict, 409, "conflict"),
        (.tooLarge, 413, "too_large"), (.unsupportedMediaType, 415, "unsupported_media_type"),
        (.userQuota, 413, "quota_exceeded"), (.namespaceQuota, 507, "quota_exceeded"),
    ])
    func aRuleOfTheDomainIsA4xxOrAFullStore(code: MusterError.Code, status: Int, name: String) {
        let answer = APIError.translating(MusterError(code, "refused; do this instead"))
        #expect(answer.status.code == status)
        #expect(answer.code == name)
        #expect(answer.message == "refused; do this instead")
        #expect(answer.fields.isEmpty)
    }

    @Test(arguments: [StoreError.Code.diskFull, .mapLimit])
    func aFullStoreIs507WithoutTheServersPaths(code: StoreError.Code) {
        let answer = APIError.translating(
            StoreError(code, "the disk holding /var/lib/muster is full (0 bytes free); free space and retry"))
        #expect(answer.status.code == 507)
        #expect(answer.code == "insufficient_storage")
        #expect(answer.message.contains("nothing was stored"))
        #expect(!answer.message.contains("/var/lib/muster"), "\(answer.message)")
    }

    @Test func theFieldARefusalConcernsIsNamed() {
        let answer = APIError.translating(
            MusterError(.invalidArgument, "password is 3 characters long", field: "password"))
        #expect(answer.status == .badRequest)
        #expect(answer.fields == [.init(field: "password", message: "password is 3 characters long")])
    }

    @Test func theStoresOwnConflictStaysA409AndItsDamageA500() {
        #expect(APIError.translating(StoreError(.conflict, "stream moved on")).status == .conflict)
        let damaged = APIError.translating(StoreError(.corrupt, "event at position 3 fails its checksum"))
        #expect(damaged.status == .internalServerError)
        #expect(damaged.code == "internal")
    }
}
