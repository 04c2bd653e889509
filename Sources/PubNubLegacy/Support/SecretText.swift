// How a secret shows in any text the package or its demo writes (descriptions, `dump`, console lines): that it is
// set, and at most its last few characters so two keys can be told apart — never the key (issue "secrets in text").

/// Redacts secret, cipher and auth keys for display.
package enum SecretText {
    /// `set (…WXYZ)`: the last 4 characters of a key of 16 or more, the last 2 of a key of 8 to 15, none of a
    /// shorter one (`set`); `""` for an empty key, which callers show their own way.
    package static func redacted(_ key: String) -> String {
        guard !key.isEmpty else { return "" }
        let shown = key.count >= 16 ? 4 : key.count >= 8 ? 2 : 0
        return shown == 0 ? "set" : "set (…\(key.suffix(shown)))"
    }
}
