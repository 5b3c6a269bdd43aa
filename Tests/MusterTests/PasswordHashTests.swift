import Muster
import Testing

/// scrypt runs on its own threads and is awaited; it still tells the password from any other.
struct PasswordHashTests {
    @Test func aHashOfTheDefaultCostMatchesItsPasswordOnly() async throws {
        let hash = try await PasswordHash.make("correct horse")
        #expect(hash.rounds == 1 << 14)
        #expect(await hash.matches("correct horse"))
        #expect(await !hash.matches("correct horse "))
        #expect(await !hash.matches(""))
    }

    @Test func manyChecksAtOnceAllAnswer() async throws {
        let hash = try await PasswordHash.make("pw", rounds: 1 << 10)
        let answers = await withTaskGroup(of: Bool.self) { group in
            for i in 0..<24 { group.addTask { await hash.matches(i.isMultiple(of: 2) ? "pw" : "pw\(i)") } }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(answers.count == 24)
        #expect(answers.filter { $0 }.count == 12)
    }
}
