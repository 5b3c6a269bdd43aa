import EventLog
import Foundation

/// `muster-loadgen DATA_DIR APPENDERS [EVENTS_EACH]`: appends from many concurrent tasks and prints
/// `position id` for every acknowledged event as soon as its ack arrives, flushing each line.
///
/// The durability test kills this process with SIGKILL mid-load and checks that every printed
/// (acknowledged) event is in the log after reopening.
@main
enum LoadGenerator {
    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count >= 3, let appenders = Int(arguments[2]) else {
            FileHandle.standardError.write(Data("usage: muster-loadgen DATA_DIR APPENDERS [EVENTS_EACH]\n".utf8))
            exit(2)
        }
        let each = arguments.count > 3 ? Int(arguments[3]) ?? Int.max : Int.max
        let log = try EventLog(directory: URL(fileURLWithPath: arguments[1]))
        let body = EventBody.json("{\"payload\":\"" + String(repeating: "x", count: 300) + "\"}")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for a in 0..<appenders {
                group.addTask {
                    var i = 0
                    while i < each {
                        let event = NewEvent(type: "Load", body: body)  // time-ordered id (EventID)
                        let result = try await log.append(AppendRequest(stream: "load-\(a)", events: [event]))
                        let line = "\(result.positions[0]) \(event.id.uuidString)\n"
                        // One write(2) per line: shorter than PIPE_BUF, so lines never interleave.
                        FileHandle.standardOutput.write(Data(line.utf8))
                        i += 1
                    }
                }
            }
            try await group.waitForAll()
        }
        log.close()
    }
}
