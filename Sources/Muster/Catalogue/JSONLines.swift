/// Splits a byte stream read in chunks into lines, counting bytes for progress: the reader of `muster import`.
///
/// A line ends at LF; a CR before the LF is dropped; the last line may lack its LF.
public struct JSONLines {
    private let read: () throws -> [UInt8]
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    private var number = 0
    /// Bytes handed out so far, newlines included.
    public private(set) var bytesRead: UInt64 = 0

    /// A reader over `read`, which returns the next chunk of the input, or no bytes at its end.
    public init(read: @escaping () throws -> [UInt8]) { self.read = read }

    /// The next line (1-based number, bytes without the newline and a trailing CR), or nil at the end.
    public mutating func next() throws -> (Int, [UInt8])? {
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                var line = Array(buffer[start..<newline])
                if line.last == 0x0D { line.removeLast() }
                bytesRead += UInt64(newline + 1 - start)
                start = newline + 1
                number += 1
                return (number, line)
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                let line = Array(buffer[start...])
                bytesRead += UInt64(buffer.count - start)
                start = buffer.count
                number += 1
                return (number, line)
            }
            buffer.removeFirst(start)
            start = 0
            let chunk = try read()
            if chunk.isEmpty { atEnd = true } else { buffer += chunk }
        }
    }
}
