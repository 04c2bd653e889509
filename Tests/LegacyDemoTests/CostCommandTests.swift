import Foundation
import TestSupport
import Testing

/// `LegacyDemo cost` as Scripts/cost.sh runs it: the built binary against a `LegacyDemo origin`, its `COST` lines and
/// exit status. No figure is judged for speed (docs/DESIGN.md §10): the tests check that the workload published what
/// it was asked to and reported its window.
@Suite(.serialized, .holdsAThread)
struct CostCommandTests {
    /// The `COST` lines of `output` by name; records an issue for a malformed one.
    private func figures(in output: String) -> [String: Double] {
        var found: [String: Double] = [:]
        for line in output.split(separator: "\n") where line.hasPrefix("COST ") {
            let fields = line.split(separator: " ")
            guard fields.count == 4, let value = Double(fields[2]), value.isFinite else {
                Issue.record("not a well-formed COST line: \(line)")
                continue
            }
            found[String(fields[1])] = value
        }
        return found
    }

    @Test(arguments: ["publish", "sequential"])
    func aPublishWorkloadSendsEveryMessageAndReportsItsWindow(workload: String) throws {
        let origin = try DemoProcess(["origin", "--port", "0"])
        defer { origin.stop() }
        let address = try #require(origin.waitForLine(containing: "listening on ")).dropFirst("listening on ".count)
        let demo = try DemoProcess(["cost", workload, "--origin", String(address), "--count", "30", "--warm-up", "5"])
        defer { demo.stop() }
        #expect(demo.waitForExit(timeout: 120) == 0, "stdout: \(demo.output)\nstderr: \(demo.errors)")
        let found = self.figures(in: demo.output)
        #expect(found["\(workload)_messages"] == 30, "\(found)")
        for name in ["switches_per_message", "cpu_per_message", "rate"] {
            #expect((found["\(workload)_\(name)"] ?? -1) >= 0, "\(workload)_\(name) in \(found)")
        }
        // The figures are printed only after the origin acknowledged all 30, in call order (CostTally).
        #expect((found["\(workload)_rate"] ?? 0) > 0)
    }

    @Test func aWorkloadThatCannotConnectFails() throws {
        let demo = try DemoProcess(["cost", "sequential", "--origin", "127.0.0.1:1", "--count", "3"])
        defer { demo.stop() }
        let status = demo.waitForExit(timeout: 120)
        #expect(status != nil && status != 0, "stdout: \(demo.output)")
        #expect(!demo.output.contains("COST sequential_messages"))
    }
}
