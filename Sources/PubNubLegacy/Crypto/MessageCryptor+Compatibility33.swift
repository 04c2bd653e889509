import Foundation

// The 3.3 scheme encrypts the string leaves of a message instead of its JSON text (docs/CRYPTO.md §2). 3.4.2's
// recursive helper stopped at the first non-string leaf and dropped the rest of the container [INF]; that defect is not
// reproduced: numbers, booleans and null are kept, unencrypted, where they were.

extension MessageCryptor {
    /// The wire JSON of `messageJSONText` in the 3.3 scheme: the same structure with every string leaf replaced by
    /// its base64 ciphertext. Dictionary keys come out sorted (JSON objects are unordered). A bare number, boolean
    /// or null is refused (`.scalarMessageIn33Scheme`): 3.3 readers refuse it on receipt.
    func compatibility33WireJSON(messageJSONText: String) -> Result<String, CryptoError> {
        guard
            let message = try? JSONSerialization.jsonObject(
                with: Data(messageJSONText.utf8),
                options: .fragmentsAllowed
            )
        else {
            return .failure(.messageNotJSON)
        }
        guard message is String || message is [Any] || message is [String: Any] else {
            // Found by the `client-decrypt` fuzz target: sent in clear, it came back as `DECRYPTION_ERROR`.
            return .failure(.scalarMessageIn33Scheme(MessageCryptor.jsonKind(of: message)))
        }
        let encrypted = self.encryptLeaves(message)
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: encrypted,
                options: [.fragmentsAllowed, .sortedKeys, .withoutEscapingSlashes]
            )
        else {
            return .failure(.messageNotJSON)
        }
        return .success(String(decoding: data, as: UTF8.self))
    }

    private func encryptLeaves(_ value: Any) -> Any {
        switch value {
        case let text as String:
            return self.encryptPayload(Array(text.utf8))
        case let array as [Any]:
            return array.map { self.encryptLeaves($0) }
        case let dictionary as [String: Any]:
            return dictionary.mapValues { self.encryptLeaves($0) }
        default:
            return value
        }
    }

    /// Decrypts a 3.3 wire value: a string, or an array or dictionary whose string leaves are ciphertexts.
    func compatibility33Value(wireValue: Any) -> Result<Any, CryptoError> {
        switch wireValue {
        case let payload as String:
            return self.decryptPayload(payload).map { decrypted in
                // A current SDK's header payload carries JSON text; a 3.3 leaf is the raw string.
                decrypted.format == .cryptorHeaderACRH ? MessageCryptor.value(of: decrypted) : decrypted.text
            }
        case is [Any], is [String: Any]:
            do throws(CryptoError) {
                return .success(try self.decryptLeaves(wireValue))
            } catch {
                return .failure(error)
            }
        default:
            return .failure(.unexpectedWireValue(MessageCryptor.jsonKind(of: wireValue)))
        }
    }

    private func decryptLeaves(_ value: Any) throws(CryptoError) -> Any {
        switch value {
        case let payload as String:
            return try self.decryptPayload(payload).get().text
        case let array as [Any]:
            var decrypted: [Any] = []
            decrypted.reserveCapacity(array.count)
            for element in array {
                decrypted.append(try self.decryptLeaves(element))
            }
            return decrypted
        case let dictionary as [String: Any]:
            var decrypted: [String: Any] = [:]
            for (key, element) in dictionary {
                decrypted[key] = try self.decryptLeaves(element)
            }
            return decrypted
        default:
            return value
        }
    }
}
