import Foundation
import Testing

@testable import LocalOrigin

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif canImport(Darwin)
import Darwin
#endif

// The control commands in process (the same text `LegacyDemo origin --control-stdin` reads): each answers one line
// starting with `ok` or `error`, and does what it says to a running origin.

@Suite struct LocalOriginControlCommandsTests {
    @Test func faultCommandsInjectListAndClear() throws {
        try withOrigin { origin throws in
            #expect(origin.performControlCommand("fault 503 time count=1") == "ok fault 1 503 time count=1")
            #expect(origin.performControlCommand("fault  never publish") == "ok fault 2 never publish")
            #expect(origin.performControlCommand("faults") == "ok faults 1 503 time count=1; 2 never publish")
            #expect(try get(origin, "/time/0").status == 503)
            #expect(origin.performControlCommand("faults") == "ok faults 2 never publish")
            #expect(origin.performControlCommand("clear 2") == "ok cleared 2")
            #expect(origin.performControlCommand("clear 2") == "error no fault 2")
            #expect(origin.performControlCommand("faults") == "ok faults none")
            #expect(origin.performControlCommand("fault refuse") == "ok fault 3 refuse")
            #expect(connectError(port: origin.port) == ECONNREFUSED)
            #expect(origin.performControlCommand("clear") == "ok cleared")
            let client = try HTTPTestClient(port: origin.port)
            #expect(try client.get("/time/0").status == 200)
            #expect(origin.performControlCommand("drop") == "ok dropped")
            try client.expectEndOfStream()
        }
    }

    @Test func restartCommandsKeepTheAddress() throws {
        try withOrigin { origin throws in
            _ = try publish(origin, "kept", on: "k")
            #expect(origin.performControlCommand("restart keep") == "ok restarted \(origin.address) keep")
            #expect(try historyMessages(origin, "k") == ["kept"])
            #expect(origin.performControlCommand("restart empty") == "ok restarted \(origin.address) empty")
            #expect(try historyMessages(origin, "k").isEmpty)
        }
    }

    @Test func countersReportTheOriginAndItsFaults() throws {
        try withOrigin { origin throws in
            _ = try publish(origin, "x", on: "c")
            _ = origin.performControlCommand("fault html time")
            _ = try get(origin, "/time/0")
            #expect(
                origin.performControlCommand("counters")
                    == "ok counters requests=1 publishes=1 stored=1 deliveries=0 parked=0 faulted=1 refusals=0 restarts=0"
            )
        }
    }

    @Test(arguments: [
        ("", "error empty command"),
        ("bogus", "error unknown command: bogus"),
        ("restart", "error unknown command: restart"),
        ("restart sometimes", "error unknown command: restart sometimes"),
        ("faults now", "error unknown command: faults now"),
        ("clear x", "error not a fault id: x"),
        ("fault", "error missing fault kind"),
        ("fault 418", "error unknown fault kind: 418"),
        ("fault 600", "error invalid fault: a server error status must be 500…599"),
    ])
    func mistakesAnswerAnErrorLineAndChangeNothing(command: String, answer: String) throws {
        try withOrigin { origin throws in
            #expect(origin.performControlCommand(command) == answer)
            #expect(origin.activeFaults.isEmpty)
        }
    }

    @Test func commandsAfterStopAnswerErrors() throws {
        let origin = try LocalOrigin.start()
        origin.stop()
        #expect(origin.performControlCommand("fault 503") == "error the origin is stopped")
        #expect(origin.performControlCommand("restart keep") == "error the origin is stopped")
        #expect(origin.performControlCommand("clear") == "ok cleared")
    }
}
