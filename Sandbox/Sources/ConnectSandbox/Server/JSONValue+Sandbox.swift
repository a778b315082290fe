import Foundation
@_spi(Sandbox) import IFTTTConnectSDK

/// The sandbox's JSON is the SDK's public ``JSONValue``: response bodies are built from its ordered literals and
/// written by its writer, so the sandbox and the SDK format numbers and escape strings the same way. These helpers
/// are what the sandbox needs on top.
extension JSONValue {
    /// A string, or `null` for `nil`.
    static func optional(_ string: String?) -> JSONValue {
        string.map(JSONValue.string) ?? .null
    }

    /// The compact JSON text of this value as UTF-8 bytes, members in order.
    func serializedData() -> Data { Data(serialized().utf8) }

    /// Reads a request body or any other JSON text with Foundation's `JSONDecoder`, object members sorted by key.
    ///
    /// A decoder hands out an object's keys in an order of its own (on Linux, hash order), so the members are sorted
    /// to keep what the sandbox stores and writes back independent of it.
    static func decodeSorted(from data: Data) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: data).sortedByKey()
    }

    /// This value with every object's members sorted by key, at every depth.
    func sortedByKey() -> JSONValue {
        switch self {
        case .array(let items): .array(items.map { $0.sortedByKey() })
        case .object(let object):
            .object(JSONObject(object.members.sorted { $0.key < $1.key }.map { ($0.key, $0.value.sortedByKey()) }))
        default: self
        }
    }
}

extension KeyedDecodingContainer {
    /// The JSON value of `key`, its object members sorted by key (see ``JSONValue/decodeSorted(from:)``), or `null`
    /// when the key is absent.
    func decodeSortedJSON(forKey key: Key) throws -> JSONValue {
        try decodeIfPresent(JSONValue.self, forKey: key)?.sortedByKey() ?? .null
    }
}
