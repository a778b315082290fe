import Foundation
@_spi(Sandbox) @testable import IFTTTConnectSDK
import Testing

/// ``JSONValue`` is the one JSON type apps see (in ``FieldValue/other(_:)``); it is `Codable`, so Foundation's
/// coders are its public way in and out, while the SDK's parser stays `package` detail.
@Suite("JSONValue Codable")
struct JSONValueCodableTests {
    static func unordered(_ value: JSONValue) -> JSONValue { JSONDifferential.unordered(value) }

    @Test func decodesEveryKindOfValue() throws {
        let text = #"{"n":null,"t":true,"f":false,"i":42,"d":-1.5e3,"s":"é\n","a":[1,"x",[]],"o":{"k":{}}}"#
        let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        let expected: JSONValue = .object(
            JSONObject([
                ("n", .null), ("t", .bool(true)), ("f", .bool(false)), ("i", .number(42)), ("d", .number(-1500)),
                ("s", .string("é\n")), ("a", .array([.number(1), .string("x"), .array([])])),
                ("o", .object(JSONObject([("k", .object(JSONObject()))]))),
            ]))
        #expect(Self.unordered(decoded) == Self.unordered(expected))
    }

    /// Found by the `json` fuzz target (`Fuzz/Regressions/json/underflowing-exponent.json`): the parser and
    /// `JSONSerialization` read a literal that underflows a `Double` as 0, `JSONDecoder` (here, on Linux) refuses
    /// it. Decoding a `JSONValue` then fails with a `DecodingError`, never a crash; a decoder that reads it reads 0.
    @Test(arguments: ["1e-400", "[0,5e-367890123456789012]", #"{"a":[1e-400]}"#])
    func anUnderflowingNumberIsZeroOrATypedDecodingError(text: String) throws {
        let parsed = try JSONParser().parse(text)
        do {
            let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
            #expect(Self.unordered(decoded) == Self.unordered(parsed))
        } catch {
            guard case .dataCorrupted(let context) = error as? DecodingError else {
                Issue.record("not a DecodingError.dataCorrupted: \(error)")
                return
            }
            #expect(context.debugDescription.contains("beyond a Double's range"))
            #expect(!context.codingPath.isEmpty || text == "1e-400")
        }
        #expect(JSONDifferential.compareCodable(Data(text.utf8)) == nil)
    }

    @Test func booleansAndNumbersStayApart() throws {
        #expect(
            try JSONDecoder().decode([JSONValue].self, from: Data("[true,1,0,false]".utf8)) == [
                .bool(true), .number(1), .number(0), .bool(false),
            ])
    }

    @Test func encodesTheSameValueAsSerialized() throws {
        let value: JSONValue = .object(
            JSONObject([
                ("z", .number(1)), ("a", .array([.bool(false), .null, .string("q\"")])),
                ("m", .object(JSONObject([("y", .number(2.5)), ("b", .string("é"))]))),
            ]))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        let encoded = String(decoding: try encoder.encode(value), as: UTF8.self)
        #expect(encoded == #"{"a":[false,null,"q\""],"m":{"b":"é","y":2.5},"z":1}"#)
        #expect(try JSONParser().parse(encoded) == Self.unordered(value))
        #expect(value.serialized() == #"{"z":1,"a":[false,null,"q\""],"m":{"y":2.5,"b":"é"}}"#)
    }

    @Test func aNonFiniteNumberEncodesAsNull() throws {
        let encoded = try JSONEncoder().encode(JSONValue.array([.number(.infinity), .number(.nan)]))
        #expect(String(decoding: encoded, as: UTF8.self) == "[null,null]")
    }

    @Test func roundTripsThroughTheParser() throws {
        let text = #"{"user_features":[{"feature_id":"f1","enabled":true,"user_fields":[{"value":{"lat":1.5}}]}]}"#
        let parsed = try JSONParser().parse(text)
        let reparsed = try JSONParser().parse(try JSONEncoder().encode(parsed))
        #expect(Self.unordered(reparsed) == Self.unordered(parsed))
    }

    /// What an app does with a field value the SDK does not model: read it with Foundation, send it back.
    @Test func anOtherFieldValueTravelsThroughCodable() throws {
        let custom = try JSONDecoder().decode(JSONValue.self, from: Data(#"{"hours":[8,17]}"#.utf8))
        let update = UserConnectionUpdate(features: [
            .init(featureId: "f1", isEnabled: true, userFields: ["window": .other(custom)])
        ])
        #expect(update.jsonValue["user_features"]?.serialized().contains(#""value":{"hours":[8,17]}"#) == true)
    }

    /// Literals spell a value as the JSON it stands for, members in the order written (the example in the docs).
    @Test func literalsKeepTheirOrder() throws {
        let location: JSONValue = ["lat": 40.7, "lng": -74.0, "radius": 150, "tags": ["home"], "default": true]
        #expect(location.serialized() == #"{"lat":40.7,"lng":-74,"radius":150,"tags":["home"],"default":true}"#)
        #expect(location.objectValue?.keys == ["lat", "lng", "radius", "tags", "default"])
        #expect(location["tags"]?.arrayValue == ["home"])
        #expect(location["lat"]?.arrayValue == nil && location["tags"]?.objectValue == nil)

        var object: JSONObject = ["b": 1, "a": "x"]
        object["c"] = .null  // a new key goes last
        object["b"] = false  // an existing key keeps its place
        #expect(JSONValue.object(object).serialized() == #"{"b":false,"a":"x","c":null}"#)
        object["a"] = nil
        #expect(object.keys == ["b", "c"])
        #expect(JSONValue.object([:]).serialized() == "{}" && JSONValue.array([]).serialized() == "[]")
    }
}
