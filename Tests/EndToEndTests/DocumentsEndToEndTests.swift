import EventLogTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Documents through the real server: what a browser could run is refused, what is stored is served inert.
@Suite struct DocumentsEndToEndTests {
    @Test func scriptIsRefusedAndMediaIsServedWithHeadersThatStopScripts() async throws {
        let server = try await ServerProcess()
        let ada = try await server.login("ada", password: "secret-ada")
        let created = try await server.send(
            "POST", "api/v1/users", token: ada, json: #"{"username":"joe","password":"secret-joe"}"#)
        #expect(created.status == 201)
        let joe = try await server.login("joe", password: "secret-joe")

        for (query, bytes, type) in [
            ("kind=image&extension=jpg", MediaSamples.htmlWithScript, "text/html"),
            ("kind=image", MediaSamples.svgWithOnload, "image/svg+xml"),
        ] {
            let refused = try await server.upload(query, bytes, type: type, token: joe)
            #expect(refused.status == 415, "\(refused.text)")
            #expect(refused.errorCode == "unsupported_media_type")
        }

        let photo = MediaSamples.file("jpeg", size: 20_000)
        let uploaded = try await server.upload("kind=image", photo, type: "image/jpeg", token: joe)
        #expect(uploaded.status == 201, "\(uploaded.text)")
        let name = try #require(uploaded.object["name"] as? String)
        let served = try await server.send("GET", "api/v1/documents/\(name)", token: joe)
        #expect(served.status == 200)
        #expect(Array(served.body) == photo)
        #expect(served.headers["content-type"] == "image/jpeg")
        #expect(served.headers["x-content-type-options"] == "nosniff")
        #expect(served.headers["content-security-policy"] == "sandbox")
        #expect(served.headers["content-disposition"]?.hasPrefix("inline; filename=\"") == true)
    }
}

extension ServerProcess {
    /// `POST /api/v1/documents?QUERY` with raw bytes of a declared type.
    func upload(_ query: String, _ bytes: [UInt8], type: String, token: String) async throws -> Answer {
        var request = URLRequest(url: URL(string: "\(base.absoluteString)/api/v1/documents?\(query)")!)
        request.httpMethod = "POST"
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.setValue(type, forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(bytes)
        let (body, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        return Answer(status: http.statusCode, headers: [:], body: body)
    }
}
