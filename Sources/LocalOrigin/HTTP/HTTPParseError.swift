// The answers the server gives by itself, before or instead of the handler: framing errors found by `HTTPParser`,
// and the timeouts and refusals of `HTTPServerLimits`.

/// A framing error (or another answer the server itself gives: a timeout, a refusal): the status and message of
/// the JSON answer sent before the connection is closed.
struct HTTPParseError: Error, Equatable, Sendable {
    /// The 4xx/5xx status of the answer.
    var status: Int
    /// A short English reason, used in the JSON body.
    var message: String

    /// A request whose header block or body did not arrive within its timeout (`HTTPServerLimits`).
    static let requestTimeout = HTTPParseError(status: 408, message: "Request Timeout")
    /// A connection refused because the server holds `HTTPServerLimits.maxConnections` and none of them is idle.
    static let tooManyConnections = HTTPParseError(status: 503, message: "Too Many Connections")

    /// The JSON error answer. 414 carries the exact body PubNub's balancer sends.
    var response: HTTPResponse {
        let body: String
        if self.status == 414 {
            body = #"{"message":"Request URI Too Long","error":true,"service":"Balancer","status":414}"#
        } else {
            body = #"{"status":\#(self.status),"error":true,"message":"\#(self.message)","service":"Balancer"}"#
        }
        return HTTPResponse(
            status: self.status,
            headers: [(name: "Content-Type", value: "text/javascript; charset=\"UTF-8\"")],
            body: Array(body.utf8)
        )
    }
}
