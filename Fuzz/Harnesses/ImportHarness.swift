import Muster

extension FuzzTarget {
    /// A file for `muster import`: JSON lines, read in chunks whose size the first byte picks.
    static let importLines = FuzzTarget(
        name: "import", summary: "JSONLines + ImportLine on a file of JSON lines"
    ) { input in
        guard let seed = input.first else { return }
        let file = Array(input.dropFirst())
        let chunk = Int(seed % 16) + 1
        var offset = 0
        var lines = JSONLines {
            let end = min(file.count, offset + chunk)
            defer { offset = end }
            return Array(file[offset..<end])
        }
        var joined: [UInt8] = []
        var expected = 1
        while let (number, line) = try? lines.next() {
            require(number == expected, "line \(number) came after line \(expected - 1)")
            require(!line.contains(0x0A), "line \(number) contains a newline")
            expected += 1
            joined += line
            do throws(ImportLine.Failure) {
                let parsed = try ImportLine(line, number: number)
                require(parsed.number == number, "line \(number) was numbered \(parsed.number)")
                require(!parsed.stream.isEmpty, "line \(number) was accepted without a stream")
            } catch {
                require(error.line == number, "line \(number)'s failure names line \(error.line)")
                require(error.description.hasPrefix("line \(number): "), "a failure that does not start with its line")
            }
        }
        require(lines.bytesRead == UInt64(file.count), "read \(lines.bytesRead) of \(file.count) bytes")
        // Every byte but the line ends came out.
        var content = file
        content.removeAll { $0 == 0x0A }
        let kept = joined.filter { $0 != 0x0D }
        require(kept == content.filter { $0 != 0x0D }, "the lines do not add up to the file")
    }
}
