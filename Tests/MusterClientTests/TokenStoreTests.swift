import Foundation
import MusterWire
import Testing

@testable import MusterClient

/// A fresh directory under the system's temporary directory, removed by `remove()`.
struct TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("MusterClientTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

private let sample = AuthTokens(
    accessToken: "access-123", refreshToken: "refresh-456", expiresAt: Date(timeIntervalSince1970: 1_795_280_400),
    username: "anna", preferredUsername: "Anna", serverType: .internal)

private func permissions(_ url: URL) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
}

@Suite struct FileTokenStoreTests {
    @Test func savedTokensLoadBackEqual() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = FileTokenStore(url: folder.url.appendingPathComponent("tokens.json"))
        try store.save(sample)
        #expect(try store.load() == sample)
        // A second store on the same file (another process, the next launch) reads the same.
        #expect(try FileTokenStore(url: store.url).load() == sample)
    }

    @Test func theFileIsReadableByItsOwnerOnly() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = FileTokenStore(url: folder.url.appendingPathComponent("tokens.json"))
        try store.save(sample)
        #expect(try permissions(store.url) == 0o600)
    }

    @Test func aWorldReadableOldFileIsReplacedByAPrivateOne() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.url.appendingPathComponent("tokens.json")
        // An old file readable by all is replaced by one that is not.
        try Data("{}".utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
        try FileTokenStore(url: url).save(sample)
        #expect(try permissions(url) == 0o600)
    }

    @Test func savingReplacesAndLeavesNoTemporaryFiles() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = FileTokenStore(url: folder.url.appendingPathComponent("tokens.json"))
        try store.save(sample)
        var second = sample
        second.accessToken = "access-789"
        second.refreshToken = nil
        try store.save(second)
        #expect(try store.load() == second)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["tokens.json"])
    }

    @Test func theFolderIsCreatedPrivate() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let nested = folder.url.appendingPathComponent("config/muster")
        let store = FileTokenStore(url: nested.appendingPathComponent("tokens.json"))
        try store.save(sample)
        #expect(try store.load() == sample)
        #expect(try permissions(nested) == 0o700)
    }

    @Test func noFileLoadsNothing() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(try FileTokenStore(url: folder.url.appendingPathComponent("none.json")).load() == nil)
    }

    @Test func clearDeletesTheFileAndIsIdempotent() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = FileTokenStore(url: folder.url.appendingPathComponent("tokens.json"))
        try store.save(sample)
        try store.clear()
        #expect(!FileManager.default.fileExists(atPath: store.url.path))
        #expect(try store.load() == nil)
        try store.clear()
    }

    @Test func aCorruptFileIsATokenStorageError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.url.appendingPathComponent("tokens.json")
        try Data("not json".utf8).write(to: url)
        let error = #expect(throws: MusterClientError.self) { try FileTokenStore(url: url).load() }
        #expect(error?.code == .tokenStorage)
        #expect(error?.message.contains(url.path) == true)
    }

    @Test func anUnwritableFolderIsATokenStorageError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // A regular file where the folder should be: no permission trick that root would ignore.
        let blocker = folder.url.appendingPathComponent("blocker")
        try Data().write(to: blocker)
        let store = FileTokenStore(url: blocker.appendingPathComponent("tokens.json"))
        let error = #expect(throws: MusterClientError.self) { try store.save(sample) }
        #expect(error?.code == .tokenStorage)
    }

    @Test func theFileIsTheDocumentedJSON() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = FileTokenStore(url: folder.url.appendingPathComponent("tokens.json"))
        try store.save(sample)
        let json = try JSONValue(json: Data(contentsOf: store.url))
        #expect(json["accessToken"] == "access-123")
        #expect(json["refreshToken"] == "refresh-456")
        #expect(json["expiresAt"] == "2026-11-21T17:00:00.000Z")
        #expect(json["serverType"] == "Internal")
    }
}

@Suite struct InMemoryTokenStoreTests {
    @Test func roundTripAndClear() {
        let store = InMemoryTokenStore()
        #expect(store.load() == nil)
        store.save(sample)
        #expect(store.load() == sample)
        store.clear()
        #expect(store.load() == nil)
    }

    @Test func startsWithGivenTokens() {
        #expect(InMemoryTokenStore(sample).load() == sample)
    }
}
