import Foundation
import Testing

@testable import LocalOrigin

@Suite struct RequestLogEntryTests {
    private func redacted(_ target: String) -> String {
        RequestLogEntry(date: Date(), method: "GET", target: target, status: 200).redactedTarget
    }

    @Test(arguments: [
        ("/time/0", "/time/0"),
        ("/time/0?uuid=u", "/time/0?uuid=u"),
        (
            "/v2/history/sub-key/s/channel/c?auth=auth-key-0123456789abcdef&uuid=u",
            "/v2/history/sub-key/s/channel/c?auth=set(…cdef)&uuid=u"
        ),
        ("/time/0?auth=mid-size&signature=v2.abc", "/time/0?auth=set(…ze)&signature=set"),
        ("/time/0?auth=&x=1&", "/time/0?auth=&x=1&"),
        // 3.4.2's push requests append the auth key after a second `?`.
        (
            "/v1/push/sub-key/s/devices/AB?add=c&uuid=u?auth=push-auth-key-0042",
            "/v1/push/sub-key/s/devices/AB?add=c&uuid=u?auth=set(…0042)"
        ),
        (
            "/time/0?signature=v2.jMPRI00wQ3Q6P0s1WpxvBhl&timestamp=1795339572",
            "/time/0?signature=set(…vBhl)&timestamp=1795339572"
        ),
        ("/time/0?xauth=visible&authx=visible", "/time/0?xauth=visible&authx=visible"),
    ])
    func credentialsAreRedactedAndEverythingElseKept(_ target: String, _ expected: String) {
        #expect(self.redacted(target) == expected)
    }
}
