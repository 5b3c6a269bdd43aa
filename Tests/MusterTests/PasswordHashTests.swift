import Muster
import Testing

/// scrypt runs on its own threads and is awaited; it still tells the password from any other.
struct PasswordHashTests {
    @Test func aHashOfTheDefaultCostMatchesItsPasswordOnly() async throws {
        let hash = try await PasswordHash.make("correct horse")
        #expect(hash.rounds == PasswordHash.defaultRounds)
        #expect(await hash.matches("correct horse"))
        #expect(await !hash.matches("correct horse "))
        #expect(await !hash.matches(""))
    }

    @Test(
        arguments: [
            (nil, nil), ("1024", 1024), ("16384", 16384), ("1048576", 1_048_576), ("512", nil), ("2097152", nil),
            ("1000", nil), ("0", nil), ("-1024", nil), ("many", nil), ("", nil),
        ] as [(String?, UInt32?)])
    func theCostOfNewHashesIsAPowerOfTwoFrom1024To1048576(text: String?, rounds: UInt32?) {
        #expect(PasswordHash.rounds(named: text) == rounds)
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
