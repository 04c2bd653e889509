import Foundation

/// One token of Objective-C source. Comments are dropped; a preprocessor line (with its `\` continuations) is one
/// `directive` token.
struct Token: Equatable {
    enum Kind: Equatable {
        /// `foo`, `PubNub`, `YES`, `self`.
        case identifier
        /// `@interface`, `@selector`, `@end`: the text holds the `@`.
        case atKeyword
        /// `@"…"` (text: the characters between the quotes, escapes kept as written).
        case objcString
        /// `"…"` (text as for `objcString`).
        case cString
        /// `'a'` (text between the quotes).
        case character
        /// `42`, `10.0f`, `0x1F`.
        case number
        /// An operator or punctuation mark: `[`, `:`, `->`, `&&`, `@` (before `[`, `{`, `(` or a number).
        case punctuation
        /// `#import "PubNub.h"`, `#define kPNOriginHost @"x"`: the whole line, continuations joined.
        case directive
    }

    let kind: Kind
    let text: String
    /// 1-based line of the token's first character.
    let line: Int
    /// UTF-8 offsets of the token in the file, end exclusive.
    let start: Int
    let end: Int

    func isPunctuation(_ mark: String) -> Bool { self.kind == .punctuation && self.text == mark }
    func isIdentifier(_ name: String) -> Bool { self.kind == .identifier && self.text == name }
}

/// Why a file could not be read as Objective-C.
struct LexError: Error, Equatable {
    let line: Int
    let reason: String
}

/// Splits Objective-C (and C) source into tokens. It knows enough of the language to never mistake a comment,
/// a string or a preprocessor line for code; it does not expand macros.
enum Lexer {
    private static let punctuators: [String] = [
        "<<=", ">>=", "...", "->", "++", "--", "&&", "||", "==", "!=", "<=", ">=", "+=", "-=", "*=", "/=", "%=",
        "&=", "|=", "^=", "<<", ">>", "##",
    ]

    /// The tokens of `source`, or the first reason it cannot be Objective-C (an unterminated comment, string or
    /// character literal, or a NUL byte).
    static func tokenize(_ source: String) throws(LexError) -> [Token] {
        let bytes = Array(source.utf8)
        var tokens: [Token] = []
        var index = 0
        var line = 1
        var atLineStart = true

        func text(_ from: Int, _ to: Int) -> String { String(decoding: bytes[from..<to], as: UTF8.self) }

        // Anywhere, even in a comment or a string: source code has no NUL bytes, binary files do.
        if let nul = bytes.firstIndex(of: 0) {
            let line = bytes[..<nul].reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
            throw LexError(line: line, reason: "a NUL byte: this is a binary file, not source code")
        }

        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                line += 1
                index += 1
                atLineStart = true
                continue
            }
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") || byte == 0x0C {
                index += 1
                continue
            }
            let next = index + 1 < bytes.count ? bytes[index + 1] : 0
            // Comments.
            if byte == UInt8(ascii: "/") && next == UInt8(ascii: "/") {
                while index < bytes.count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
                continue
            }
            if byte == UInt8(ascii: "/") && next == UInt8(ascii: "*") {
                let startLine = line
                index += 2
                var closed = false
                while index < bytes.count {
                    if bytes[index] == UInt8(ascii: "*") && index + 1 < bytes.count
                        && bytes[index + 1] == UInt8(ascii: "/")
                    {
                        index += 2
                        closed = true
                        break
                    }
                    if bytes[index] == UInt8(ascii: "\n") { line += 1 }
                    index += 1
                }
                if !closed { throw LexError(line: startLine, reason: "a /* comment that is never closed") }
                continue
            }
            let start = index
            let startLine = line
            // A preprocessor line, with its continuations.
            if byte == UInt8(ascii: "#") && atLineStart {
                while index < bytes.count && bytes[index] != UInt8(ascii: "\n") {
                    if bytes[index] == UInt8(ascii: "\\") && index + 1 < bytes.count
                        && bytes[index + 1] == UInt8(ascii: "\n")
                    {
                        index += 2
                        line += 1
                        continue
                    }
                    if bytes[index] == UInt8(ascii: "/") && index + 1 < bytes.count
                        && (bytes[index + 1] == UInt8(ascii: "/") || bytes[index + 1] == UInt8(ascii: "*"))
                    {
                        break  // a trailing comment; the comment rules above skip it
                    }
                    index += 1
                }
                let directive = text(start, index).replacingOccurrences(of: "\\\n", with: " ")
                tokens.append(Token(kind: .directive, text: directive, line: startLine, start: start, end: index))
                continue
            }
            atLineStart = false
            if isIdentifierStart(byte) {
                while index < bytes.count && isIdentifierPart(bytes[index]) { index += 1 }
                tokens.append(Token(kind: .identifier, text: text(start, index), line: line, start: start, end: index))
                continue
            }
            if isDigit(byte) || (byte == UInt8(ascii: ".") && isDigit(next)) {
                index += 1
                while index < bytes.count {
                    let current = bytes[index]
                    let isExponentSign =
                        (current == UInt8(ascii: "+") || current == UInt8(ascii: "-"))
                        && (bytes[index - 1] == UInt8(ascii: "e") || bytes[index - 1] == UInt8(ascii: "E"))
                        && !text(start, index).hasPrefix("0x")
                    guard isIdentifierPart(current) || current == UInt8(ascii: ".") || isExponentSign else { break }
                    index += 1
                }
                tokens.append(Token(kind: .number, text: text(start, index), line: line, start: start, end: index))
                continue
            }
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
                || (byte == UInt8(ascii: "@") && next == UInt8(ascii: "\""))
            {
                let isObjC = byte == UInt8(ascii: "@")
                let quote = isObjC ? UInt8(ascii: "\"") : byte
                index += isObjC ? 2 : 1
                let contentStart = index
                while index < bytes.count && bytes[index] != quote {
                    if bytes[index] == UInt8(ascii: "\n") {
                        throw LexError(line: startLine, reason: "a string or character literal that is never closed")
                    }
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                guard index < bytes.count else {
                    throw LexError(line: startLine, reason: "a string or character literal that is never closed")
                }
                let kind: Token.Kind = isObjC ? .objcString : (quote == UInt8(ascii: "'") ? .character : .cString)
                let content = text(contentStart, index)
                index += 1
                tokens.append(Token(kind: kind, text: content, line: line, start: start, end: index))
                continue
            }
            if byte == UInt8(ascii: "@") && isIdentifierStart(next) {
                index += 1
                while index < bytes.count && isIdentifierPart(bytes[index]) { index += 1 }
                tokens.append(Token(kind: .atKeyword, text: text(start, index), line: line, start: start, end: index))
                continue
            }
            if let mark = punctuators.first(where: { matches($0, bytes, at: index) }) {
                index += mark.utf8.count
                tokens.append(Token(kind: .punctuation, text: mark, line: line, start: start, end: index))
                continue
            }
            index += byte < 0x80 ? 1 : utf8Length(byte)
            tokens.append(Token(kind: .punctuation, text: text(start, index), line: line, start: start, end: index))
        }
        return tokens
    }

    private static func matches(_ mark: String, _ bytes: [UInt8], at index: Int) -> Bool {
        let utf8 = Array(mark.utf8)
        guard index + utf8.count <= bytes.count else { return false }
        return Array(bytes[index..<index + utf8.count]) == utf8
    }

    private static func utf8Length(_ lead: UInt8) -> Int {
        lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$")
    }

    private static func isIdentifierPart(_ byte: UInt8) -> Bool { isIdentifierStart(byte) || isDigit(byte) }
}
