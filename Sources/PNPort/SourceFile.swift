import Foundation

/// One Objective-C file read and split into tokens.
struct SourceFile {
    /// The path as the report prints it.
    let path: String
    let tokens: [Token]
    let lineCount: Int
    private let bytes: [UInt8]

    /// Why a file cannot be scanned: the report prints it and the run goes on with the other files.
    struct Failure: Error, Equatable {
        let path: String
        let reason: String
    }

    /// The Objective-C file extensions the assistant reads.
    static let extensions: Set<String> = ["h", "m", "mm"]

    init(path: String, text: String) throws(LexError) {
        self.path = path
        self.bytes = Array(text.utf8)
        self.tokens = try Lexer.tokenize(text)
        self.lineCount =
            text.isEmpty
            ? 0
            : text.split(separator: "\n", omittingEmptySubsequences: false).count
                - (text.hasSuffix("\n") ? 1 : 0)
    }

    /// Reads `path` (shown as `displayPath`): a UTF-8 text file whose extension is `.h`, `.m` or `.mm`.
    static func read(_ path: String, displayPath: String) throws(Failure) -> SourceFile {
        let ext = (path as NSString).pathExtension.lowercased()
        guard extensions.contains(ext) else {
            throw Failure(path: displayPath, reason: "not an Objective-C source (.h, .m or .mm)")
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw Failure(path: displayPath, reason: "cannot be read (\(Self.reason(error)))")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw Failure(path: displayPath, reason: "not Objective-C: the file is not UTF-8 text")
        }
        do {
            return try SourceFile(path: displayPath, text: text)
        } catch {
            throw Failure(path: displayPath, reason: "not Objective-C: line \(error.line) has \(error.reason)")
        }
    }

    private static func reason(_ error: any Error) -> String {
        let error = error as NSError
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return error.localizedDescription
    }

    /// The source text of tokens `first…last` with every run of whitespace or comments between tokens turned into
    /// one space, so a send written over many lines reads as one.
    func text(_ first: Int, _ last: Int, eliding elided: [ClosedRange<Int>] = []) -> String {
        guard first <= last, first >= 0, last < self.tokens.count else { return "" }
        var out = ""
        var index = first
        while index <= last {
            if let range = elided.first(where: { $0.lowerBound == index }) {
                out += out.isEmpty || out.hasSuffix(" ") ? "{ … }" : " { … }"
                index = range.upperBound + 1
                continue
            }
            let token = self.tokens[index]
            if index > first && token.start > self.tokens[index - 1].end && !out.hasSuffix(" ") { out += " " }
            out += String(decoding: self.bytes[token.start..<token.end], as: UTF8.self)
            index += 1
        }
        return out
    }

    /// The source text of one token as written (`@"hi"` with its quotes).
    func text(of token: Token) -> String { String(decoding: self.bytes[token.start..<token.end], as: UTF8.self) }
}
