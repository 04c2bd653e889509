import Foundation

// The bytes of a request's head, shared by the pool's workers and the pipelined writer.

extension SocketPool {
    /// The request line and headers: the ones `URLSessionTransport` sends, plus the framing ones, and
    /// `Connection: close` when the connection will not carry another request (the server then closes first, so the
    /// closed connection's wait state is the server's, not this client's).
    static func head(of task: SocketTask, keepAlive: Bool = true) -> [UInt8] {
        // Bytes appended to one buffer sized up front: no intermediate strings.
        let request = task.request
        let target = task.target
        var head: [UInt8] = []
        head.reserveCapacity(target.pathAndQuery.utf8.count + target.hostHeader.utf8.count + 240)
        head.append(contentsOf: request.method.utf8)
        head.append(UInt8(ascii: " "))
        head.append(contentsOf: target.pathAndQuery.utf8)
        head.append(contentsOf: " HTTP/1.1\r\nHost: ".utf8)
        head.append(contentsOf: target.hostHeader.utf8)
        if !keepAlive { head.append(contentsOf: "\r\nConnection: close".utf8) }
        head.append(contentsOf: Self.fixedHeaders)
        if let body = request.body {
            head.append(contentsOf: "Content-Type: application/json\r\nContent-Length: ".utf8)
            head.append(contentsOf: String(body.count).utf8)
            head.append(contentsOf: "\r\n".utf8)
        } else if request.method != "GET" && request.method != "HEAD" {
            head.append(contentsOf: "Content-Length: 0\r\n".utf8)
        }
        head.append(contentsOf: "\r\n".utf8)
        return head
    }

    /// The headers every request carries, after `Host`.
    private static let fixedHeaders = Array(
        "\r\nUser-Agent: PubNubLegacy-Swift/3.4\r\nAccept: */*\r\nAccept-Encoding: identity\r\nV: 3.4\r\n".utf8
    )
}
