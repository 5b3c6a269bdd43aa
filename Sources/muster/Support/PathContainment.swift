import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where one path lies with respect to another, as the file system resolves them.
enum PathContainment {
    /// True when `path` is `directory` or lies inside it, symbolic links resolved (`path` need not exist yet).
    static func isInside(_ path: URL, _ directory: URL) -> Bool {
        let outer = resolved(directory)
        let inner = resolved(path)
        return inner == outer || inner.hasPrefix(outer.hasSuffix("/") ? outer : outer + "/")
    }

    /// The absolute path with symbolic links resolved, as far as it exists; the rest appended as given.
    private static func resolved(_ url: URL) -> String {
        var existing = url.standardizedFileURL
        var rest: [String] = []
        while true {
            if let real = realPath(existing.path) {
                return ([real == "/" ? "" : real] + rest).joined(separator: "/")
            }
            if existing.path == "/" { return url.standardizedFileURL.path }
            rest.insert(existing.lastPathComponent, at: 0)
            existing = existing.deletingLastPathComponent()
        }
    }

    private static func realPath(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }
}
