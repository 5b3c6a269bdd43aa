import EventLogTesting
import Foundation
import Testing

/// `muster documents list`: the uploads, newest first, on a data directory and on a server.
@Suite struct DocumentsListCLITests {
    @Test func theUploadsAreListedNewestFirstWithWhoUploadedThem() async throws {
        let server = try await ServerProcess()
        let work = try TemporaryDirectory("documents-list")
        defer { work.remove() }
        let (ada, joe) = try await Terminal.adaAndJoe(on: server, in: work)

        let photo = work.url.appendingPathComponent("photo.jpg")
        try Data(MediaSamples.file("jpeg", size: 2_000)).write(to: photo)
        var names: [String] = []
        for terminal in [joe, ada, joe] {
            let put = try await terminal.run(["documents", "put", photo.path])
            #expect(put.status == 0, "\(put)")
            names.append(try #require(try put.json()["name"] as? String))
        }

        // Over HTTP, one's own uploads, newest first; as on the data directory for that user, byte for byte.
        let own = try await joe.run(["documents", "list", "--json"])
        #expect(own.status == 0, "\(own)")
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(own.stdout.utf8)) as? [[String: Any]])
        #expect(listed.compactMap { $0["name"] as? String } == [names[2], names[0]])
        #expect(listed.allSatisfy { $0["user"] as? String == "joe" && $0["size"] as? Int == 2_000 })
        #expect(listed.allSatisfy { $0["kind"] as? String == "image" && $0["contentType"] as? String == "image/jpeg" })
        for format in [[], ["--json"]] {
            let remote = try await joe.run(["documents", "list"] + format)
            let local = try await MusterProcess.run(["documents", "list", "--user", "joe"] + format + server.data)
            #expect(remote.status == 0 && local.status == 0, "\(remote)\n\(local)")
            #expect(remote.stdout == local.stdout, "\(remote)\n\(local)")
        }
        let table = try await joe.run(["documents", "list"])
        #expect(table.lines.first?.hasPrefix("NAME") == true && table.lines.count == 3, "\(table)")

        // An administrator may name another user; anyone else may not.
        let named = try await ada.run(["documents", "list", "--user", "joe", "--json"])
        #expect(named.stdout == own.stdout, "\(named)")
        let refused = try await joe.run(["documents", "list", "--user", "ada"])
        #expect(refused.status != 0 && refused.stderr.contains("administrator"), "\(refused)")

        // On the data directory: everyone's, newest first — the operator's uploads (as cli) too —, or one user's; a
        // name that is neither a user nor an uploader is refused.
        let byTheOperator = try await MusterProcess.run(["documents", "put", photo.path] + server.data)
        names.append(try #require(try byTheOperator.json()["name"] as? String))
        let everyone = try await MusterProcess.run(["documents", "list", "--json"] + server.data)
        let all = try #require(try JSONSerialization.jsonObject(with: Data(everyone.stdout.utf8)) as? [[String: Any]])
        #expect(all.compactMap { $0["name"] as? String } == names.reversed())
        #expect(all.compactMap { $0["user"] as? String } == ["cli", "joe", "ada", "joe"])
        let cli = try await MusterProcess.run(["documents", "list", "--user", "cli"] + server.data)
        #expect(cli.status == 0 && cli.lines.count == 2, "\(cli)")
        let nobody = try await MusterProcess.run(["documents", "list", "--user", "zed"] + server.data)
        #expect(nobody.status == 2 && nobody.stderr.contains("no user named zed"), "\(nobody)")
        #expect(await server.stop() == 0)
    }

    @Test func documentsAreRemovedByTheirUploaderAnAdministratorAndOnTheDataDirectory() async throws {
        let server = try await ServerProcess()
        let work = try TemporaryDirectory("documents-remove")
        defer { work.remove() }
        let (ada, joe) = try await Terminal.adaAndJoe(on: server, in: work)
        let photo = work.url.appendingPathComponent("photo.jpg")
        try Data(MediaSamples.file("jpeg", size: 2_000)).write(to: photo)
        var names: [String] = []
        for terminal in [joe, joe, ada] {
            let put = try await terminal.run(["documents", "put", photo.path])
            names.append(try #require(try put.json()["name"] as? String, "\(put)"))
        }

        let own = try await joe.run(["documents", "remove", names[0]])
        #expect(own.status == 0, "\(own)")
        #expect(try own.json()["removed"] as? String == names[0])
        let adas = try await joe.run(["documents", "remove", names[2]])
        #expect(adas.status == 2 && adas.stderr.contains("you have no document"), "\(adas)")
        let byAda = try await ada.run(["documents", "remove", names[1]])
        #expect(byAda.status == 0, "\(byAda)")
        #expect(try await joe.run(["documents", "list", "--json"]).stdout == "[]\n")
        let gone = try await joe.run([
            "documents", "get", names[0], "--output", work.url.appendingPathComponent("x").path,
        ])
        #expect(gone.status == 2, "\(gone)")

        let local = try await MusterProcess.run(["documents", "remove", names[2]] + server.data)
        #expect(local.status == 0, "\(local)")
        let twice = try await MusterProcess.run(["documents", "remove", names[2]] + server.data)
        #expect(twice.status == 2 && twice.stderr.contains("no document named"), "\(twice)")
        #expect(try await MusterProcess.run(["documents", "list", "--json"] + server.data).stdout == "[]\n")
        let audit = try await ada.run(["audit", "--user", "joe", "--json"])
        #expect(audit.stdout.contains("\(names[1]) of joe removed by ada"), "\(audit)")
        #expect(await server.stop() == 0)
    }
}
