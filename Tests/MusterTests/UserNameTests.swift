import EventLog
import EventLogTesting
import Foundation
import Muster
import Testing

/// New user names: NFC, one user per case-folded name, no invisible, path or look-alike names;
/// a minimum password length. Older names keep working.
@Suite struct UserNameTests {
    func open(_ t: TestLog) throws -> (EventLog, Directory) {
        let log = try t.open { $0.projections += MusterDomain.projections }
        return (log, Directory(log: log))
    }

    @Test(arguments: [
        ("ada\u{202E}nimda", "U+202E"), ("\u{2066}ada", "U+2066"), ("a\u{200F}da", "U+200F"), ("a\u{200B}da", "U+200B"),
        ("a\u{85}da", "U+0085"), (" ada", "space"), ("ada ", "space"), ("ada\u{3000}", "space"), ("../x", "path"),
        ("a/b", "path"), ("a\\b", "path"), (".ada", "path"), ("a..b", "path"), ("\u{430}da", "Cyrillic and Latin"),
        ("ad\u{3B1}", "Greek and Latin"), ("a\u{0}b", "control"),
    ])
    func aNameThatHidesOrLooksLikeAnotherIsRefused(name: String, why: String) async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let (log, directory) = try open(t)
        let error = await #expect(throws: MusterError.self) {
            try await directory.addUser(name, password: "long enough")
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.field == "user name")
        #expect(error?.message.hasPrefix("user name") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains(why) == true, "\(error?.message ?? "")")
        #expect(log.head == 0)
    }

    @Test func namesOfOneScriptAccentsAndInnerSpacesAreFineAndStoredInNFC() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let (_, directory) = try open(t)
        for name in ["Дмитрий", "Νίκος", "李雷", "o'brien", "ann-marie smith", "user@example.com", "joe.bloggs"] {
            #expect(try await directory.addUser(name, password: nil).name == name)
        }
        let decomposed = "Jose\u{301}"
        #expect(Array(try await directory.addUser(decomposed, password: nil).name.utf8) == Array("Jos\u{E9}".utf8))
        #expect(try directory.user("Jos\u{E9}") != nil)
    }

    @Test func namesThatDifferOnlyInCaseOrNormalisationAreOneUser() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let (log, directory) = try open(t)
        try await directory.addUser("ada", password: "ada's password")
        try await directory.addUser("Jos\u{E9}", password: nil)
        let head = log.head
        for name in ["ADA", "Ada", "JOSE\u{301}", "jos\u{E9}"] {
            let error = await #expect(throws: MusterError.self) { try await directory.addUser(name, password: nil) }
            #expect(error?.code == .conflict, "\(name)")
        }
        let error = await #expect(throws: MusterError.self) { try await directory.addUser("ADA", password: nil) }
        #expect(error?.message.contains(#"as "ada""#) == true, "\(error?.message ?? "")")
        // Another namespace is another directory.
        try await directory.addUser("ADA", password: nil, namespace: "acme")
        #expect(log.head == head + 1)
        // A login finds the user by the folded name; the tokens name the user as written.
        let tokens = try await Sessions(log: log).login(username: "ADA", password: "ada's password")
        #expect(tokens.username == "ada")
    }

    @Test func aNewPasswordMustBeLongEnough() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let (log, directory) = try open(t)
        for password in ["", "a", "1234567"] {
            let error = await #expect(throws: MusterError.self) {
                try await directory.addUser("kim", password: password)
            }
            #expect(error?.code == .invalidArgument)
            #expect(error?.field == "password")
            #expect(error?.message.hasPrefix("password is \(password.count) character") == true)
            #expect(error?.message.contains("at least 8") == true)
        }
        let strict = await #expect(throws: MusterError.self) {
            try await directory.addUser("kim", password: "12345678", minimumPasswordLength: 12)
        }
        #expect(strict?.message.contains("at least 12") == true)
        #expect(log.head == 0)
        try await directory.addUser("kim", password: "12345678")
        #expect(Sessions.Policy().minimumPasswordLength == 8)
    }

    @Test func olderNamesThatBreakTheRulesOrCollideKeepWorking() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let (log, directory) = try open(t)
        // As 0.1.0 wrote them: straight into the log.
        for (name, password) in [("ada", "pw-a"), ("ADA", "pw-A"), ("../x", "pw-x"), (" sp ", "pw-s")] {
            let user = UserCreated(
                name: name, email: nil, timeZone: "UTC", isAdmin: false,
                password: try await PasswordHash.make(password, rounds: 16))
            try await log.append(
                AppendRequest(
                    namespace: Names.defaultNamespace, stream: "user/\(name)", events: [user.newEvent(actor: "test")]))
        }
        try await log.rebuild([DirectoryProjection.name])
        let sessions = Sessions(log: log)
        for (name, password) in [("ada", "pw-a"), ("ADA", "pw-A"), ("../x", "pw-x"), (" sp ", "pw-s")] {
            #expect(try await sessions.login(username: name, password: password).username == name)
        }
        #expect(try directory.users().count == 4)
        #expect(DirectoryProjection().version >= 2, "version 1 had no userKeys")
    }
}
