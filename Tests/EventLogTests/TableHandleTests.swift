import EventLogTesting
import Foundation
import Synchronization
import Testing

@testable import EventLog

/// Table handles in one process: LMDB numbers a new handle from the opening transaction's view of the open
/// handles, so handles opened by concurrent transactions could share a number and one table's reads go to
/// another. Every reader, however many at once and while the writer makes tables, reads its own table.
@Suite struct TableHandleTests {
    static func name(_ index: Int) -> String { "t\(index)" }

    @Test func concurrentReadersAndTheWriterEachReachTheirOwnTable() throws {
        let work = try TemporaryDirectory("table-handles")
        defer { work.remove() }
        let first = try Environment(directory: work.url)
        let txn = try first.beginWrite()
        for index in 0..<40 {
            try txn.put(try first.createTable(Self.name(index), in: txn), Array("k".utf8), Array(Self.name(index).utf8))
        }
        try first.commit(txn)
        first.close()

        let environment = try Environment(directory: work.url)
        defer { environment.close() }
        let wrong = Mutex<[String]>([])
        let written = DispatchSemaphore(value: 0)
        let writer = Thread {
            defer { written.signal() }
            for index in 40..<80 {
                do {
                    let txn = try environment.beginWrite()
                    let table = try environment.createTable(Self.name(index), in: txn)
                    try txn.put(table, Array("k".utf8), Array(Self.name(index).utf8))
                    try environment.commit(txn)
                } catch {
                    wrong.withLock { $0.append("writer: \(error)") }
                }
            }
        }
        writer.start()
        DispatchQueue.concurrentPerform(iterations: 8) { reader in
            for index in (0..<40).shuffled() {
                do {
                    let value = try environment.read { txn -> String? in
                        guard let table = try environment.table(Self.name(index), in: txn, create: false) else {
                            return nil
                        }
                        return try txn.get(table, Array("k".utf8)).map { String(decoding: $0, as: UTF8.self) }
                    }
                    if value != Self.name(index) {
                        wrong.withLock { $0.append("reader \(reader): \(Self.name(index)) read \(value ?? "nothing")") }
                    }
                } catch {
                    wrong.withLock { $0.append("reader \(reader): \(error)") }
                }
            }
        }
        written.wait()
        for index in 0..<80 {
            let value = try environment.read { txn in
                try environment.table(Self.name(index), in: txn, create: false).flatMap {
                    try txn.get($0, Array("k".utf8))
                }
            }
            if value != Array(Self.name(index).utf8) { wrong.withLock { $0.append("after: \(Self.name(index))") } }
        }
        #expect(wrong.withLock { $0 }.isEmpty, "\(wrong.withLock { $0 })")
    }
}
