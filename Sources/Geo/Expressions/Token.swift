/// One lexical unit of an expression, with where it starts.
struct Token: Sendable, Hashable {
    let kind: Kind
    let position: SourcePosition

    enum Kind: Sendable, Hashable {
        case number(Double)
        case text(String)
        case template([TemplatePart])
        case identifier(String)
        /// `$name`, the name without the dollar, as written.
        case profile(String)
        /// An operator or punctuation: `( ) [ ] { } , : ; . + - * / % ! = == != < <= > >= && ||`.
        case symbol(String)
        /// The `}` that closes a template literal's `${`.
        case templateEnd
        case end
    }

    /// A piece of a template literal: text as written, or the tokens inside `${…}` ending in `templateEnd`.
    enum TemplatePart: Sendable, Hashable {
        case text(String)
        case tokens([Token])
    }

    /// How the token reads in an error's "found …".
    var found: String {
        switch kind {
        case .number(let number): "number \(ArcadeValue.text(of: number))"
        case .text(let text): "text \(ArcadeValue.quoted(text.count > 20 ? String(text.prefix(20)) + "…" : text))"
        case .template: "a template literal"
        case .identifier(let name): "'\(name)'"
        case .profile(let name): "'$\(name)'"
        case .symbol(let symbol): "'\(symbol)'"
        case .templateEnd: "'}'"
        case .end: "end of expression"
        }
    }

    func isSymbol(_ symbol: String) -> Bool { kind == .symbol(symbol) }

    /// Whether the token is the keyword `word` (keywords ignore case, as Arcade's do).
    func isKeyword(_ word: String) -> Bool {
        if case .identifier(let name) = kind { return name.lowercased() == word }
        return false
    }

    var isEnd: Bool { kind == .end || kind == .templateEnd }
}
