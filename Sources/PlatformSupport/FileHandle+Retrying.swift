import Foundation

// corelibs Foundation's `availableData` and `readDataToEndOfFile()` end the process when a read is interrupted by a
// signal (EINTR), and a process that runs children gets signals (SIGCHLD when one exits) on any of its threads. The
// bench and the tests that read a child's pipes read through these instead.

extension FileHandle {
    /// The next bytes available (up to 64 KiB), waiting for some; empty at the end of the file. A read interrupted
    /// by a signal is retried; any other failure reads as the end. Blocks the calling thread.
    package func nextChunk() -> Data {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { readDescriptor(self.fileDescriptor, $0) }
            if count >= 0 { return Data(buffer[..<count]) }
            if errno != EINTR { return Data() }
        }
    }

    /// Everything up to the end of the file (`nextChunk()` until it is empty). Blocks the calling thread.
    package func readToEndRetrying() -> Data {
        var data = Data()
        while true {
            let chunk = self.nextChunk()
            if chunk.isEmpty { return data }
            data.append(chunk)
        }
    }
}

/// `read(2)` into `buffer`: outside the extension, where `read` names the system call, not `FileHandle`'s method.
private func readDescriptor(_ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
    read(descriptor, buffer.baseAddress, buffer.count)
}
