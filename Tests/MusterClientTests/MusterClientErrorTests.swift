import Foundation
import Testing

@testable import MusterClient

@Suite struct MusterClientErrorTests {
    @Test func theServersErrorShapeWithFields() {
        let body = Data(
            #"""
            {"error": {"code": "invalid_values", "message": "2 values do not fit the form",
                       "fields": [{"field": "age", "message": "expected an integer, got \"ten\""},
                                  {"field": "colour", "message": "not one of Red, Green, Blue"}]}}
            """#.utf8)
        let error = MusterClientError(statusCode: 422, body: body)
        #expect(error.code == .invalidValues)
        #expect(error.statusCode == 422)
        #expect(error.message == "2 values do not fit the form")
        #expect(error.errorStr == error.message)
        #expect(
            error.fields == [
                .init(field: "age", message: #"expected an integer, got "ten""#),
                .init(field: "colour", message: "not one of Red, Green, Blue"),
            ])
        #expect(!error.requiresLogin)
        #expect(!error.isTransient)
    }

    @Test(
        arguments: [
            (401, "unauthenticated", true), (401, "invalid_credentials", true), (401, "token_expired", true),
            (401, "token_revoked", true), (401, "token_unknown", true), (403, "forbidden", false),
            (404, "not_found", false), (409, "conflict", false), (413, "too_large", false),
            (415, "unsupported_media_type", false), (422, "invalid_payload", false), (400, "bad_request", false),
        ] as [(Int, String, Bool)])
    func eachCodeWithoutFields(_ status: Int, _ code: String, _ requiresLogin: Bool) {
        let body = Data(#"{"error":{"code":"\#(code)","message":"what went wrong"}}"#.utf8)
        let error = MusterClientError(statusCode: status, body: body)
        #expect(error.code.rawValue == code)
        #expect(error.statusCode == status)
        #expect(error.fields.isEmpty)
        #expect(error.requiresLogin == requiresLogin)
    }

    @Test func throttledCarriesRetryAfter() {
        let body = Data(#"{"error":{"code":"throttled","message":"too many failed logins"}}"#.utf8)
        let error = MusterClientError(statusCode: 429, body: body, retryAfter: "30")
        #expect(error.code == .throttled)
        #expect(error.retryAfter == .seconds(30))
        #expect(error.isTransient)
    }

    @Test func unavailableIsTransient() {
        let body = Data(#"{"error":{"code":"unavailable","message":"shutting down"}}"#.utf8)
        #expect(MusterClientError(statusCode: 503, body: body).isTransient)
    }

    @Test func anUnknownCodeIsKept() {
        let body = Data(#"{"error":{"code":"quota_exceeded","message":"daily limit reached"}}"#.utf8)
        let error = MusterClientError(statusCode: 429, body: body)
        #expect(error.code == MusterClientError.Code(rawValue: "quota_exceeded"))
        #expect(error.message == "daily limit reached")
    }

    @Test(
        arguments: [
            (502, "<html><body>Bad Gateway</body></html>\nmore"),
            (500, ""),
            (404, #"{"message":"not the documented shape"}"#),
            (400, #"{"error":"a string, not an object"}"#),
        ] as [(Int, String)])
    func aBodyThatIsNotTheShapeNamesTheStatus(_ status: Int, _ text: String) {
        let error = MusterClientError(statusCode: status, body: Data(text.utf8))
        #expect(error.code == .httpStatus)
        #expect(error.statusCode == status)
        #expect(error.message.contains("HTTP \(status)"))
        #expect(!error.message.contains("\n"))
    }

    @Test func theRequestIdOfANewerServerIsKeptAndAnOlderServersBodyStillDecodes() {
        let newer = Data(#"{"error":{"code":"internal","message":"the store failed","requestId":"r-4711"}}"#.utf8)
        let error = MusterClientError(statusCode: 500, body: newer)
        #expect(error.code == MusterClientError.Code(rawValue: "internal"))
        #expect(error.requestId == "r-4711")
        let older = Data(#"{"error":{"code":"not_found","message":"no such message"}}"#.utf8)
        let old = MusterClientError(statusCode: 404, body: older)
        #expect(old.code == .notFound)
        #expect(old.message == "no such message")
        #expect(old.requestId == nil)
    }

    @Test func aBadRetryAfterIsIgnored() {
        let error = MusterClientError(statusCode: 503, body: Data(), retryAfter: "soon")
        #expect(error.retryAfter == nil)
    }

    @Test func descriptionIsOneLineWithFields() {
        let error = MusterClientError(
            code: .invalidValues, statusCode: 422, message: "values do not fit",
            fields: [.init(field: "age", message: "too old")])
        #expect(error.description == "422 invalid_values: values do not fit (age: too old)")
        #expect(error.localizedDescription == "values do not fit")
    }

    @Test func transportErrorsAreTransientAndCancellationIsNot() {
        let offline = MusterClientError.transport(URLError(.notConnectedToInternet), url: URL(string: "http://h:1"))
        #expect(offline.code == .transport)
        #expect(offline.statusCode == nil)
        #expect(offline.isTransient)
        #expect(offline.message.contains("h"))
        let cancelled = MusterClientError.transport(CancellationError(), url: nil)
        #expect(cancelled.code == .cancelled)
        #expect(!cancelled.isTransient)
        let passedThrough = MusterClientError.transport(MusterClientError(code: .conflict, message: "x"), url: nil)
        #expect(passedThrough.code == .conflict)
    }

    @Test func aSessionRecordsTheErrorKeys() {
        var session = MusterSession(serverType: .internal, authValid: true, username: "anna")
        let body = Data(#"{"error":{"code":"token_revoked","message":"log in again"}}"#.utf8)
        session.recordFailure(MusterClientError(statusCode: 401, body: body))
        #expect(session.errorStr == "log in again")
        #expect(session.statusCode == 401)
        #expect(!session.authValid)
        #expect(!session.succeeded)
        session.recordSuccess(statusCode: 200)
        #expect(session.errorStr.isEmpty)
        #expect(session.error == nil)
        #expect(session.succeeded)
    }
}
