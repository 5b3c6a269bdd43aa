import Foundation
import MusterClient

/// Where `muster login` keeps the login (the tokens, the server and the namespace): the file named by
/// `MUSTER_SESSION`, or `~/.config/muster/session.json`; readable by its owner only (mode 0600).
enum SessionFile {
    /// The file.
    static var url: URL {
        if let path = ProcessInfo.processInfo.environment["MUSTER_SESSION"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return FileManager.default.homeDirectoryForCurrentUser
            .appendingPathComponent(".config/muster/session.json")
    }

    /// The token store on the file: the client saves refreshed tokens in it and clears it on logout.
    static var store: FileTokenStore { FileTokenStore(url: url) }

    /// The stored login; nil when there is none. An unreadable file is a runtime failure naming it.
    static func load() throws -> AuthTokens? {
        do {
            return try store.load()
        } catch let error as MusterClientError {
            throw CommandFailure.failed(error.message)
        }
    }
}
