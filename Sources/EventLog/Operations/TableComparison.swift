/// Walks two tables in key order side by side and reports every key that is only in one of them or
/// whose values differ. A missing table compares as an empty one. Tables of value sets compare entry by entry: a
/// key with a value is what is stored or missing.
struct TableComparison {
    let stored: (Transaction, Table)?
    let rebuilt: (Transaction, Table)?
    var valueSets = false

    func run(_ difference: (String) -> Void) throws {
        let left = try stored.map { try Cursor($0.0, $0.1) }
        let right = try rebuilt.map { try Cursor($0.0, $0.1) }
        defer {
            left?.close()
            right?.close()
        }
        var a = try left?.first()
        var b = try right?.first()
        while a != nil || b != nil {
            switch (a, b) {
            case (let x?, let y?):
                var order = Self.compare(x.key, y.key)
                if valueSets && order == 0 { order = Self.compare(x.value, y.value) }
                if order == 0 {
                    if !x.value.elementsEqual(y.value) {
                        difference(
                            "key \(Self.render(x.key)) holds \(x.value.count) bytes, the rebuild \(y.value.count) different bytes"
                        )
                    }
                    a = try left?.next()
                    b = try right?.next()
                } else if order < 0 {
                    difference("\(entry(x)) is stored but not produced by the rebuild")
                    a = try left?.next()
                } else {
                    difference("\(entry(y)) is produced by the rebuild but missing")
                    b = try right?.next()
                }
            case (let x?, nil):
                difference("\(entry(x)) is stored but not produced by the rebuild")
                a = try left?.next()
            case (nil, let y?):
                difference("\(entry(y)) is produced by the rebuild but missing")
                b = try right?.next()
            case (nil, nil):
                return
            }
        }
    }

    /// How a difference names an entry: its key, and in a value set the value too.
    private func entry(_ e: Cursor.Entry) -> String {
        guard valueSets, e.value.count == 8 else { return "key \(Self.render(e.key))" }
        return "key \(Self.render(e.key)) value \(UInt64(bigEndian: e.value.loadUnaligned(as: UInt64.self)))"
    }

    /// LMDB's default order: bytes compared as unsigned, a shorter key before its extensions.
    static func compare(_ x: UnsafeRawBufferPointer, _ y: UnsafeRawBufferPointer) -> Int {
        for (p, q) in zip(x, y) where p != q { return p < q ? -1 : 1 }
        return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
    }

    /// Printable ASCII as is, other bytes as `\xNN`, cut after 64 bytes.
    static func render(_ key: UnsafeRawBufferPointer) -> String {
        var text = "\""
        for byte in key.prefix(64) {
            if byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\\") && byte != UInt8(ascii: "\"") {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                text += "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16)
            }
        }
        return text + (key.count > 64 ? "…\"" : "\"")
    }
}
