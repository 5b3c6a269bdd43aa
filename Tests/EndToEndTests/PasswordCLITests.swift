import EventLogTesting
import Foundation
import Testing

/// `muster users password`: an administrator resets a password, a user changes their own, on a server and on its
/// data directory.
@Suite struct PasswordCLITests {
    @Test func passwordsAreSetAnewAndTheSessionsTheyOpenedEnd() async throws {
        let server = try await ServerProcess()
        let work = try TemporaryDirectory("password-cli")
        defer { work.remove() }
        let (ada, joe) = try await Terminal.adaAndJoe(on: server, in: work)

        // An administrator resets joe's: his login ends, the new password logs in.
        let reset = try await ada.run(["users", "password", "joe", "--password-stdin"], stdin: "reset-by-ada\n")
        #expect(reset.status == 0, "\(reset)")
        #expect(try reset.json()["name"] as? String == "joe" && reset.json()["hasPassword"] as? Bool == true)
        let ended = try await joe.run(["inbox"])
        #expect(ended.status == 1 && ended.stderr.contains("log in again"), "\(ended)")
        try await joe.login(server.base, "joe", password: "reset-by-ada")

        // joe changes his own: the current one first, then the new one; this login goes on.
        let oneLine = try await joe.run(["users", "password", "joe", "--password-stdin"], stdin: "reset-by-ada\n")
        #expect(oneLine.status == 2 && oneLine.stderr.contains("new password"), "\(oneLine)")
        let wrong = try await joe.run(
            ["users", "password", "joe", "--password-stdin"], stdin: "not-the-one\njoes-own-choice\n")
        #expect(wrong.status != 0 && wrong.stderr.contains("current password is not right"), "\(wrong)")
        let own = try await joe.run(
            ["users", "password", "joe", "--password-stdin"], stdin: "reset-by-ada\njoes-own-choice\n")
        #expect(own.status == 0, "\(own)")
        #expect(try await joe.run(["inbox"]).status == 0, "his own login goes on")
        let notHis = try await joe.run(["users", "password", "ada", "--password-stdin"], stdin: "x\nnew-for-ada\n")
        #expect(notHis.status != 0 && notHis.stderr.contains("administrator"), "\(notHis)")

        // On the data directory, as its operator: the server's sessions of joe end there too.
        let local = try await MusterProcess.run(
            ["users", "password", "joe", "--password-stdin"] + server.data, stdin: "set-on-the-disk\n")
        #expect(local.status == 0, "\(local)")
        #expect(try await joe.run(["inbox"]).status == 1)
        try await joe.login(server.base, "joe", password: "set-on-the-disk")
        let audit = try await ada.run(["audit", "--user", "joe", "--json"])
        #expect(audit.stdout.contains("password of joe changed by ada"), "\(audit)")
        #expect(audit.stdout.contains("password of joe changed by cli"), "\(audit)")
        let events = try await MusterProcess.run(["events", "--type", "PasswordChanged", "--json"] + server.data)
        #expect(events.lines.count == 3 && !events.stdout.contains("joes-own-choice"), "\(events)")
        #expect(await server.stop() == 0)
    }
}
