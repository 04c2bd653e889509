import Foundation

/// Writes `line` and a newline to stdout with one unbuffered write, so it reaches a pipe at once (scripts wait for
/// `listening on …`) and lines written from several threads never interleave.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Writes `line` and a newline to stderr with one unbuffered write.
func complain(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
