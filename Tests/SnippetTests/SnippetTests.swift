import Testing

/// The code blocks of README.md and MIGRATION.md, compiled as this target's `Snippets.generated.swift`
/// (written by `Scripts/extract-snippets.py`; `Scripts/check-migration.py` fails when it is out of date).
///
/// Compiling the target is most of the test: a snippet that uses a renamed or removed API, or that produces a
/// warning, breaks the build (`-warnings-as-errors`). Most snippets are only compiled, never called — they connect
/// to a PubNub origin, wait on the main queue or stand for part of an app. The few marked
/// `<!-- snippet: run -->` are cheap and use loopback only; this suite calls each of them once.
@Suite struct SnippetTests {
    @Test func runnableSnippetsRunWithoutThrowing() throws {
        let snippets = runnableSnippets()
        #expect(!snippets.isEmpty, "README.md's LocalOrigin example is marked runnable")
        for snippet in snippets {
            do {
                try snippet.run()
            } catch {
                Issue.record("\(snippet.name) threw \(error)")
            }
        }
    }
}
