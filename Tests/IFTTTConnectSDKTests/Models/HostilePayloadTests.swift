import Foundation
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore

/// Malformed and hostile payloads: each must give a typed ``ConnectDecodingError`` (never a crash), and
/// the error must name where the problem is.
@Suite("Hostile payloads give typed errors")
struct HostilePayloadTests {
    /// Objects nested exactly to the parser's limit parse; one level more is a typed error. Shallow enough that a
    /// parser without the limit parses it instead of overflowing its stack, so a lost limit fails this test by name
    /// (`scripts/mutate.sh`'s nesting-limit mutation) rather than crashing the test process.
    @Test func objectsOneLevelDeeperThanTheLimitAreRefused() throws {
        let limit = JSONParser().maximumDepth
        func nested(_ depth: Int) -> String {
            String(repeating: #"{"a":"#, count: depth - 1) + "{}" + String(repeating: "}", count: depth - 1)
        }
        #expect(throws: Never.self) { try JSONParser().parse(nested(limit)) }
        #expect(throws: ConnectDecodingError.self) { try JSONParser().parse(nested(limit + 1)) }
    }

    static let valid =
        #"{"type":"connection","id":"c1","name":"N","description":"D","url":"https://ifttt.com/c1","user_status":"enabled","services":[{"service_id":"a","service_name":"A","is_primary":true}]}"#

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let payload: Data
        let path: String?
        var testDescription: String { name }

        init(_ name: String, _ text: String, path: String? = nil) {
            self.name = name
            self.payload = Data(text.utf8)
            self.path = path
        }

        init(_ name: String, data: Data, path: String? = nil) {
            self.name = name
            self.payload = data
            self.path = path
        }
    }

    static let cases: [Case] = [
        Case("empty body", ""),
        Case("whitespace only", "   \n "),
        Case("truncated JSON", String(valid.dropLast(10))),
        Case("truncated in a string", #"{"type":"connection","id":"c"#),
        Case("trailing garbage", valid + "x"),
        Case("two documents", valid + valid),
        Case("top-level array", "[1,2,3]", path: "$"),
        Case("top-level string", #""connection""#, path: "$"),
        Case("top-level number", "42", path: "$"),
        Case("null document", "null", path: "$"),
        Case("single quotes", "{'id':'x'}"),
        Case("trailing comma", #"{"id":"x",}"#),
        Case("unquoted key", #"{id:"x"}"#),
        Case("NaN literal", #"{"id":NaN}"#),
        Case("leading zero number", #"{"id":01}"#),
        Case("bare minus", #"{"id":-}"#),
        Case("raw control character in string", "{\"id\":\"a\u{01}b\"}"),
        Case("invalid escape", #"{"id":"\q"}"#),
        Case("lone surrogate", #"{"id":"\ud800"}"#),
        Case("truncated unicode escape", #"{"id":"\u12"}"#),
        Case("huge number", #"{"id":"c","enabled_count":1e999999}"#),
        Case("very long number", "{\"n\":" + String(repeating: "9", count: 5000) + ".5}"),
        Case("deep array nesting", String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)),
        Case(
            "deep object nesting", String(repeating: #"{"a":"#, count: 5000) + "1" + String(repeating: "}", count: 5000)
        ),
        Case("10 MB body", data: Data(("{\"id\":\"" + String(repeating: "a", count: 10_000_000) + "\"}").utf8)),
        Case(
            "missing primary service",
            #"{"type":"connection","id":"c","name":"N","url":"https://x.y","services":[{"service_id":"a","service_name":"A","is_primary":false}]}"#,
            path: "$.services"),
        Case(
            "no services at all", #"{"type":"connection","id":"c","name":"N","url":"https://x.y"}"#, path: "$.services"),
        Case(
            "services is an object", #"{"type":"connection","id":"c","name":"N","url":"https://x.y","services":{}}"#,
            path: "$.services"),
        Case(
            "id is an object", #"{"type":"connection","id":{},"name":"N","url":"https://x.y","services":[]}"#,
            path: "$.id"),
        Case("id missing", #"{"type":"connection","name":"N","url":"https://x.y","services":[]}"#, path: "$"),
        Case(
            "name is null", #"{"type":"connection","id":"c","name":null,"url":"https://x.y","services":[]}"#, path: "$"),
        Case(
            "url is not a URL",
            #"{"type":"connection","id":"c","name":"N","url":"not a url","services":[{"service_id":"a","service_name":"A","is_primary":true}]}"#,
            path: "$.url"),
        Case(
            "is_primary is a number",
            #"{"type":"connection","id":"c","name":"N","url":"https://x.y","services":[{"service_id":"a","service_name":"A","is_primary":7}]}"#,
            path: "$.services[0].is_primary"),
        Case(
            "service without id",
            #"{"type":"connection","id":"c","name":"N","url":"https://x.y","services":[{"service_name":"A","is_primary":true}]}"#,
            path: "$.services[0]"),
        Case(
            "service is a string",
            #"{"type":"connection","id":"c","name":"N","url":"https://x.y","services":["twitter"]}"#,
            path: "$.services[0]"),
        // 2.8 leaves out a feature without a title (issue 11 item 5, DecodingTableTests); a title that is not a
        // string still fails with its path.
        Case(
            "feature with an array title",
            #"{"type":"connection","id":"c","name":"N","url":"https://x.y","services":[{"service_id":"a","service_name":"A","is_primary":true}],"features":[{"id":"f","title":[]}]}"#,
            path: "$.features[0].title"),
        Case(
            "trigger id is an array",
            #"{"type":"connection","id":"c","name":"N","url":"https://x.y","services":[{"service_id":"a","service_name":"A","is_primary":true}],"features":[{"id":"f","title":"T","feature_triggers":[{"id":[]}]}]}"#,
            path: "$.features[0].feature_triggers[0].id"),
        Case(
            "user_connection is a string",
            #"{"type":"connection","id":"c","name":"N","url":"https://x.y","services":[{"service_id":"a","service_name":"A","is_primary":true}],"user_connection":"yes"}"#,
            path: "$.user_connection"),
        // ConnectSDK-iOS 2.8 never reads `feature_id`, so a user feature without it decodes (issue 11 item 5);
        // one whose `feature_id` is not a string still fails with its path.
        Case(
            "user feature with an array feature_id",
            #"{"type":"connection","id":"c","name":"N","url":"https://x.y","services":[{"service_id":"a","service_name":"A","is_primary":true}],"user_connection":{"user_features":[{"id":"u","feature_id":[]}]}}"#,
            path: "$.user_connection.user_features[0].feature_id"),
        Case(
            "cover_image is an array",
            #"{"type":"connection","id":"c","name":"N","url":"https://x.y","services":[{"service_id":"a","service_name":"A","is_primary":true}],"cover_image":[]}"#,
            path: "$.cover_image"),
        Case("unknown envelope type", #"{"type":"applet","id":"c"}"#, path: "$.type"),
        Case("error envelope", #"{"type":"error","code":"not_found","message":"Not found"}"#, path: "$.type"),
        Case("empty list envelope", #"{"type":"list","data":[]}"#, path: "$.data"),
        Case("list envelope without data", #"{"type":"list"}"#, path: "$"),
        Case("list with a bad element", #"{"type":"list","data":[1]}"#, path: "$.data[0]"),
        Case("invalid UTF-8 in a key position", data: Data([0x7B, 0xFF, 0xFE, 0x7D])),
    ]

    @Test(arguments: cases)
    func hostilePayloadIsATypedError(_ testCase: Case) {
        do {
            let connection = try Connection.decode(from: testCase.payload)
            Issue.record("decoded \(connection.id) from \(testCase.name)")
        } catch {
            if let path = testCase.path {
                #expect(error.path == path, "\(testCase.name): \(error)")
            }
            #expect(!error.description.isEmpty)
        }
    }

    @Test func thereAreAtLeastThirtyHostileCases() {
        #expect(Self.cases.count >= 30)
    }

    @Test func theValidBaselineDecodes() throws {
        #expect(try Connection.decode(from: Data(Self.valid.utf8)).id == "c1")
    }

    @Test func specificReasons() {
        func reason(_ text: String) -> ConnectDecodingError.Reason? {
            do {
                _ = try Connection.decode(from: Data(text.utf8))
                return nil
            } catch {
                return error.reason
            }
        }
        #expect(reason(String(repeating: "[", count: 1000)) == .nestingTooDeep(limit: 128))
        #expect(reason(#"{"a":1e400}"#) == .numberOutOfRange)
        #expect(
            reason(#"{"type":"connection","id":"c","name":"N","url":"https://x.y","services":[]}"#) == .noPrimaryService
        )
        if case .payloadTooLarge(let bytes, let limit)? = reason(String(repeating: " ", count: 9_000_000)) {
            #expect(bytes == 9_000_000 && limit == 8 * 1024 * 1024)
        } else {
            Issue.record("expected payloadTooLarge")
        }
    }
}

@Suite("Tolerant decoding where the API is loose")
struct TolerantDecodingTests {
    @Test func looseShapesDecode() throws {
        let text = #"""
            {"type":"connection","id":123,"name":"N","url":"https://x.y","unknown_key":{"deep":[1,2,3]},"description":null,
             "user_status":"paused",
             "services":[{"service_id":"a","service_name":"Alpha","is_primary":"true","brand_color":"  #00FF7f ","monochrome_icon_url":"::::"},
                         {"service_id":"b","service_name":"Beta","service_short_name":null,"brand_color":"red"}],
             "cover_image":{"480w_url":"https://c/480","bogus":"x","720w_url":42},
             "features":[{"title":"T","feature_triggers":[{"id":606,"fields":[{"id":"location","type":"LOCATION_EXIT","required":"false","default_value":{"lat":"1.5","lng":"2.5"}}]}]}],
             "user_connection":{"user_features":[{"id":"u","feature_id":"missing-feature","enabled":true,"user_feature_triggers":[{"id":"sub_with_underscores","feature_trigger_id":"606","user_fields":[{"field_id":"location","value":{"latitude":"10","longitude":"20","radius":"50"}}]}]}]}}
            """#
        let connection = try Connection.decode(from: Data(text.utf8))
        #expect(connection.id == "123")
        #expect(connection.description == "")
        #expect(connection.status == .unknown)
        #expect(connection.primaryService.id == "a")
        #expect(connection.primaryService.brandColor == ConnectColor(red: 0, green: 255, blue: 0x7F))
        #expect(connection.primaryService.monochromeIconURL == nil)
        #expect(connection.services[1].shortName == "Beta")
        #expect(connection.services[1].brandColor == nil)
        #expect(connection.coverImages.map(\.width) == [480])
        #expect(connection.features[0].id == "")
        #expect(connection.features[0].triggers[0].id == "606")
        #expect(connection.features[0].triggers[0].fields[0].isRequired == false)
        let regions = connection.locationRegions
        #expect(regions.count == 1)
        #expect(regions[0].identifier == "ifttt_sub_with_underscores")
        #expect(LocationRegion.triggerSubscriptionId(fromIdentifier: regions[0].identifier) == "sub_with_underscores")
        #expect(LocationRegion.triggerSubscriptionId(fromIdentifier: "host_app_region") == nil)
        #expect(regions[0].transitions == .exit)  // from the definition's LOCATION_EXIT
        #expect(regions[0].radius == 50)
    }

    @Test func listEnvelopeDecodes() throws {
        let item = HostilePayloadTests.valid
        let list = try Connection.decodeList(from: Data(#"{"type":"list","data":[\#(item),\#(item)]}"#.utf8))
        #expect(list.count == 2)
        #expect(try Connection.decode(from: Data(#"{"type":"list","data":[\#(item)]}"#.utf8)).id == "c1")
    }

    @Test func errorEnvelopeParses() throws {
        let payload = try #require(
            APIErrorPayload(
                data: Data(
                    #"{"type":"error","code":"invalid_parameters","message":"Bad","details":[{"parameter":"email","message":"is invalid"}]}"#
                        .utf8)))
        #expect(payload.code == "invalid_parameters")
        #expect(payload.details == [.init(parameter: "email", message: "is invalid")])
        #expect(APIErrorPayload(data: Data("<html>".utf8)) == nil)
        #expect(APIErrorPayload(data: Data(#"{"type":"connection"}"#.utf8)) == nil)
    }

    @Test func jsonRoundTripsThroughSerialization() throws {
        let text = #"{"a":[1,2.5,-3e-2,true,false,null],"b":"é\n\"\u0001","c":{}}"#
        let value = try JSONParser().parse(text)
        #expect(try JSONParser().parse(value.serialized()) == value)
        #expect(try JSONParser().parse(value.prettySerialized()) == value)
        #expect(value["b"]?.stringValue == "é\n\"\u{01}")
        #expect(try JSONParser().parse(#""\ud83d\ude00""#) == .string("😀"))
    }
}
