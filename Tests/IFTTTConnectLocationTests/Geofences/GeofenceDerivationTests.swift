import Foundation
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectLocation
import TestSupport

/// Region derivation follows ConnectSDK-iOS 2.8 (spec §4.1) except where spec §9 lists a fix; each case here
/// is one rule of the Location article's table.
@Suite("Geofence derivation matches 2.8")
struct GeofenceDerivationTests {
    /// A Connection with one user feature (`enabled` spelled as given, or left out) and the given triggers.
    static func connection(enabled: String? = "true", triggers: [String], definitions: String = "") throws -> Connection
    {
        let enabledKey = enabled.map { #""enabled":\#($0),"# } ?? ""
        let features =
            definitions.isEmpty ? "" : #","features":[{"id":"f1","title":"F","feature_triggers":[\#(definitions)]}]"#
        let json = #"""
            {"type":"connection","id":"gx","name":"N","description":"D","url":"https://ifttt.com/gx","user_status":"enabled",
             "services":[{"service_id":"gx","service_name":"GX","is_primary":true}]\#(features),
             "user_connection":{"user_features":[{"id":"u1","feature_id":"f1",\#(enabledKey)"user_feature_triggers":[\#(triggers.joined(separator: ","))]}]}}
            """#
        return try Connection.decode(from: Data(json.utf8))
    }

    static func trigger(
        _ id: String, fieldId: String = "location", type: String? = "LOCATION_ENTER_AND_EXIT",
        value: String = #"{"lat":37.5,"lng":-122.5,"radius":250}"#, featureTriggerId: String = "t1"
    ) -> String {
        let typeKey = type.map { #""field_type":"\#($0)","# } ?? ""
        return
            #"{"id":"\#(id)","feature_trigger_id":"\#(featureTriggerId)","user_fields":[{"field_id":"\#(fieldId)",\#(typeKey)"value":\#(value)}]}"#
    }

    static func identifiers(_ connection: Connection) -> [String] {
        Geofence.geofences(for: [connection]).map(\.identifier)
    }

    @Test func onlyAJSONTrueOrOneEnablesAUserFeature() throws {
        #expect(Self.identifiers(try Self.connection(enabled: "true", triggers: [Self.trigger("a")])) == ["ifttt_a"])
        #expect(Self.identifiers(try Self.connection(enabled: nil, triggers: [Self.trigger("a")])).isEmpty)  // missing
        // A string.
        #expect(Self.identifiers(try Self.connection(enabled: #""true""#, triggers: [Self.trigger("a")])).isEmpty)
        #expect(Self.identifiers(try Self.connection(enabled: "false", triggers: [Self.trigger("a")])).isEmpty)
        // Foundation reads a JSON 1 as true, so 2.8 monitored it (DerivationParityTests); 0 and 2 are off.
        #expect(Self.identifiers(try Self.connection(enabled: "1", triggers: [Self.trigger("a")])) == ["ifttt_a"])
        #expect(Self.identifiers(try Self.connection(enabled: "0", triggers: [Self.trigger("a")])).isEmpty)
        #expect(Self.identifiers(try Self.connection(enabled: "2", triggers: [Self.trigger("a")])).isEmpty)
    }

    @Test func aBadTriggerOrFieldNeverCostsItsSiblingsOrTheConnection() throws {
        let connection = try Self.connection(triggers: [
            #"{"id":"nulls","user_fields":[null,{"field_id":"location","value":{"lat":1,"lng":1,"radius":200}}]}"#,
            #"{"id":true,"user_fields":[]}"#, "null", #""trigger""#, #"{"id":"text","user_fields":"location"}"#,
            Self.trigger("kept"),
        ])
        #expect(Self.identifiers(connection) == ["ifttt_nulls", "ifttt_kept"])
    }

    @Test func onlyTheFieldNamedLocationIsUsedWhateverTheOtherFieldsTypes() throws {
        let connection = try Self.connection(triggers: [
            Self.trigger("other_name", fieldId: "place", type: "LOCATION_ENTER"),
            Self.trigger("group", fieldId: "group_guid", type: "LOCATION_ENTER_OR_EXIT"),
            Self.trigger("named", fieldId: "location", type: "LOCATION_EXIT"),
        ])
        #expect(Self.identifiers(connection) == ["ifttt_named"])
        #expect(connection.locationRegions.map(\.transitions) == [.exit])
    }

    @Test func aLocationFieldOfUnknownOrMissingTypeIsMonitoredForBothTransitions() throws {
        let connection = try Self.connection(triggers: [
            Self.trigger("point", type: "LOCATION_POINT"),
            Self.trigger("future", type: "LOCATION_DWELL"),
            Self.trigger("text", type: "TEXT_FIELD"),
            Self.trigger("untyped", type: nil),
        ])
        #expect(Self.identifiers(connection) == ["ifttt_point", "ifttt_future", "ifttt_text", "ifttt_untyped"])
        #expect(connection.locationRegions.allSatisfy { $0.transitions == [.enter, .exit] })
    }

    @Test func theDefinitionsTypeIsUsedWhenTheUserFieldHasNone() throws {
        let definitions =
            #"{"id":"t1","trigger_id":"enter_region","service_id":"location","fields":[{"id":"location","type":"LOCATION_ENTER"}]}"#
        let connection = try Self.connection(triggers: [Self.trigger("a", type: nil)], definitions: definitions)
        #expect(connection.locationRegions.map(\.transitions) == [.enter])
    }

    @Test func aMissingRadiusGivesNoRegion() throws {
        let connection = try Self.connection(triggers: [
            Self.trigger("no_radius", value: #"{"lat":37.5,"lng":-122.5}"#),
            Self.trigger("null_radius", value: #"{"lat":37.5,"lng":-122.5,"radius":null}"#),
            Self.trigger("bad_radius", value: #"{"lat":37.5,"lng":-122.5,"radius":"wide"}"#),
            Self.trigger("string_radius", value: #"{"lat":"37.5","lng":"-122.5","radius":"300"}"#),
        ])
        #expect(Self.identifiers(connection) == ["ifttt_string_radius"])
        #expect(connection.locationRegions.first?.radius == 300)
    }

    @Test func anEmptyTriggerIdGivesNoRegion() throws {
        let connection = try Self.connection(triggers: [Self.trigger(""), Self.trigger("kept")])
        #expect(connection.locationRegions.map(\.identifier) == ["ifttt_kept"])
        #expect(!Self.identifiers(connection).contains("ifttt_"))
    }

    @Test func severalLocationFieldsInOneTriggerGiveOneRegionTheFirstComplete() throws {
        let two =
            #"{"id":"double","feature_trigger_id":"t1","user_fields":["#
            + #"{"field_id":"location","value":{"lat":1,"lng":1}},"#
            + #"{"field_id":"location","value":{"lat":2,"lng":2,"radius":200}},"#
            + #"{"field_id":"location","value":{"lat":3,"lng":3,"radius":200}}]}"#
        let connection = try Self.connection(triggers: [two, Self.trigger("double")])
        #expect(connection.locationRegions.count == 1)
        #expect(connection.locationRegions.first?.latitude == 2)
    }

    @Test func theStoredRegistryKeepsTheDerivation() throws {
        // What the synchronizer stores is what derivation gives: no region comes back from storage that 2.8 would not make.
        let connection = try Self.connection(enabled: nil, triggers: [Self.trigger("a")])
        #expect(StoredConnection(connection).geofences(radiusLimits: RadiusLimits()).isEmpty)
    }
}

@Suite("Geofences article")
struct GeofencesDocumentationTests {
    static let articleURL = Repository.url("Sources/IFTTTConnectLocation/IFTTTConnectLocation.docc/Geofences.md")

    /// The article's example, verbatim between the markers; the test also checks the article still shows it.
    @Test func theArticleExampleWorks() throws {
        let data = Data(Self.fixture.utf8)
        // begin example
        let connection = try Connection.decode(from: data)  // GET /v2/connections/{id} with the user's token
        let fences = Geofence.geofences(for: [connection])  // ifttt_<user feature trigger id>, one per trigger
        let nearest = GeofenceIndex(fences).nearest(1, to: Coordinate(latitude: 37.78, longitude: -122.41))
        // end example
        #expect(fences.map(\.identifier) == ["ifttt_store"])
        #expect(nearest.map(\.geofence.identifier) == ["ifttt_store"])
        let article = try String(contentsOf: Self.articleURL, encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let example = try #require(
            source.components(separatedBy: "// begin example\n").dropFirst().first?
                .components(separatedBy: "        // end example").first)
        let unindented = example.split(separator: "\n").map { $0.dropFirst(8) }.joined(separator: "\n")
        #expect(article.contains("```swift\n" + unindented + "\n```"))
    }

    static let fixture = #"""
        {"type":"connection","id":"gx","name":"N","description":"D","url":"https://ifttt.com/gx","user_status":"enabled",
         "services":[{"service_id":"gx","service_name":"GX","is_primary":true}],
         "user_connection":{"user_features":[{"id":"u1","feature_id":"f1","enabled":true,"user_feature_triggers":[
          {"id":"store","feature_trigger_id":"t1","user_fields":[{"field_id":"location","value":{"lat":37.78,"lng":-122.41,"radius":200}}]}]}]}}
        """#
}
