import Foundation
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore
import TestSupport
@_spi(Sandbox) @testable import IFTTTConnectLocation

/// The same payloads through ConnectSDK-iOS 2.8's derivation (``ConnectSDK28Derivation``) and through ours: each row
/// is either the same, or a difference the "Geofences" article documents (the row names the phrase it must contain).
@Suite("Geofence derivation: 2.8's, or documented")
struct DerivationParityTests {
    /// The simulated device's `maximumRegionMonitoringDistance`: larger than the SDK's old 200 km cap.
    static let deviceMaximum = 400_000.0

    enum Verdict: Sendable, CustomStringConvertible {
        case same
        /// A difference; the phrase names its row in Geofences.md's table.
        case documented(String)

        var description: String {
            switch self {
            case .same: return "same"
            case .documented(let phrase): return "documented (\(phrase))"
            }
        }
    }

    struct Row: Sendable, CustomStringConvertible {
        var name: String
        var payload: String
        var verdict: Verdict
        var description: String { name }
    }

    static let location =
        #"{"field_id":"location","field_type":"LOCATION_ENTER_AND_EXIT","value":{"lat":37.784,"lng":-122.4075,"radius":150}}"#
    static let otherPlace = #"{"field_id":"location","value":{"lat":37.7765,"lng":-122.4172,"radius":200}}"#

    static func field(_ value: String, type: String = "LOCATION_ENTER_AND_EXIT", id: String = "location") -> String {
        #"{"field_id":"\#(id)","field_type":"\#(type)","value":\#(value)}"#
    }

    static func trigger(_ id: String = #""t1""#, fields: String = location) -> String {
        #"{"id":\#(id),"feature_trigger_id":"ft","user_fields":[\#(fields)]}"#
    }

    static func feature(enabled: String = "true", triggers: String = trigger()) -> String {
        #"{"id":"uf","feature_id":"f","enabled":\#(enabled),"user_feature_triggers":[\#(triggers)]}"#
    }

    static let primary =
        ##"{"service_id":"gx","service_name":"Grocery Express","service_short_name":"GX","is_primary":true,"monochrome_icon_url":"https://x.test/m.png","brand_color":"#00AA00","url":"https://ifttt.com/gx"}"##

    static func connection(
        status: String = "enabled", service: String = primary, features: String? = feature()
    ) -> String {
        let user = features.map { #","user_connection":{"user_features":[\#($0)]}"# } ?? ""
        return
            #"{"type":"connection","id":"gx-c","name":"N","description":"D","url":"https://ifttt.com/gx-c","user_status":"\#(status)","services":[\#(service)]\#(user)}"#
    }

    static let rows: [Row] = [
        Row(name: "one enabled location trigger", payload: connection(), verdict: .same),
        Row(
            name: "a Connection without its type key",
            payload: connection().replacingOccurrences(of: #""type":"connection","#, with: ""),
            verdict: .documented("A Connection whose `type` key is missing")),
        Row(
            name: "two triggers in one feature",
            payload: connection(features: feature(triggers: trigger() + "," + trigger(#""t2""#, fields: otherPlace))),
            verdict: .same),
        Row(name: "feature enabled: false", payload: connection(features: feature(enabled: "false")), verdict: .same),
        Row(
            name: "feature without enabled",
            payload: connection(features: #"{"id":"uf","user_feature_triggers":[\#(trigger())]}"#), verdict: .same),
        Row(
            name: "feature enabled: \"true\"", payload: connection(features: feature(enabled: #""true""#)),
            verdict: .same),
        Row(name: "feature enabled: 1", payload: connection(features: feature(enabled: "1")), verdict: .same),
        Row(name: "feature enabled: 2", payload: connection(features: feature(enabled: "2")), verdict: .same),
        Row(name: "user_status disabled", payload: connection(status: "disabled"), verdict: .same),
        Row(name: "no user_connection", payload: connection(features: nil), verdict: .same),
        Row(
            name: "a LOCATION_ENTER field whose field_id is not location",
            payload: connection(
                features: feature(triggers: trigger(fields: field(#"{"lat":1,"lng":2,"radius":300}"#, id: "where")))),
            verdict: .same),
        Row(
            name: "two location fields, the first without radius",
            payload: connection(
                features: feature(
                    triggers: trigger(fields: field(#"{"lat":1,"lng":2}"#) + "," + Self.location))),
            verdict: .same),
        Row(
            name: "two complete location fields",
            payload: connection(features: feature(triggers: trigger(fields: Self.location + "," + Self.otherPlace))),
            verdict: .same),
        Row(
            name: "value without radius",
            payload: connection(features: feature(triggers: trigger(fields: field(#"{"lat":37.784,"lng":-122.4}"#)))),
            verdict: .same),
        Row(
            name: "numbers as strings",
            payload: connection(
                features: feature(
                    triggers: trigger(fields: field(#"{"lat":"37.784","lng":"-122.4075","radius":"150"}"#)))),
            verdict: .same),
        Row(
            name: "radius 300 km, the device allows 400 km",
            payload: connection(
                features: feature(triggers: trigger(fields: field(#"{"lat":37.784,"lng":-122.4075,"radius":300000}"#)))),
            verdict: .same),
        Row(
            name: "radius 500 km, beyond the device's 400 km",
            payload: connection(
                features: feature(triggers: trigger(fields: field(#"{"lat":37.784,"lng":-122.4075,"radius":500000}"#)))),
            verdict: .same),
        Row(
            name: "radius as a hexadecimal string \"0x1p8\"",
            payload: connection(
                features: feature(triggers: trigger(fields: field(#"{"lat":37.784,"lng":-122.4075,"radius":"0x1p8"}"#)))
            ),
            verdict: .same),
        Row(
            name: "service is_primary: 1",
            payload: connection(service: primary.replacingOccurrences(of: "true", with: "1")),
            verdict: .same),
        Row(
            name: "service is_primary: \"true\"",
            payload: connection(service: primary.replacingOccurrences(of: ":true", with: #":"true""#)), verdict: .same),
        Row(
            name: "a trigger whose user_fields is [null], beside another trigger",
            payload: connection(
                features: feature(triggers: trigger(fields: "null") + "," + trigger(#""t2""#, fields: otherPlace))),
            verdict: .same),
        Row(
            name: "a trigger whose user_fields is a string, beside another trigger",
            payload: connection(
                features: feature(
                    triggers: #"{"id":"t1","user_fields":"location"},"# + trigger(#""t2""#, fields: otherPlace))),
            verdict: .same),
        Row(
            name: "a trigger whose id is true, beside another trigger",
            payload: connection(
                features: feature(triggers: trigger("true") + "," + trigger(#""t2""#, fields: otherPlace))),
            verdict: .same),
        Row(
            name: "a location value that is a string",
            payload: connection(features: feature(triggers: trigger(fields: field(#""923 Market St""#)))),
            verdict: .same),
        // Documented differences.
        Row(
            name: "trigger id with underscores \"abc_def\"",
            payload: connection(features: feature(triggers: trigger(#""abc_def""#))),
            verdict: .documented("Trigger subscription id sent")),
        Row(
            name: "trigger id \"\"", payload: connection(features: feature(triggers: trigger(#""""#))),
            verdict: .documented("A trigger whose `id` is empty")),
        Row(
            name: "trigger id given as the number 123",
            payload: connection(features: feature(triggers: trigger("123"))),
            verdict: .documented("A trigger `id` given as a number")),
        Row(
            name: "radius \"inf\"",
            payload: connection(
                features: feature(triggers: trigger(fields: field(#"{"lat":37.784,"lng":-122.4075,"radius":"inf"}"#)))),
            verdict: .documented("A radius that is not a finite number")),
        Row(
            name: "radius \"nan\"",
            payload: connection(
                features: feature(triggers: trigger(fields: field(#"{"lat":37.784,"lng":-122.4075,"radius":"nan"}"#)))),
            verdict: .documented("A radius that is not a finite number")),
        Row(
            name: "latitude \" 37.784\" with a leading space",
            payload: connection(
                features: feature(
                    triggers: trigger(fields: field(#"{"lat":" 37.784","lng":"-122.4075","radius":150}"#)))),
            verdict: .documented("A number written with spaces around it")),
        Row(
            name: "lat given twice (37.784, then 40.0)",
            payload: connection(
                features: feature(
                    triggers: trigger(fields: field(#"{"lat":37.784,"lng":-122.4075,"radius":150,"lat":40.0}"#)))),
            verdict: .documented("A key given twice in one object")),
        Row(
            name: "a null among a trigger's user_fields, beside its location field",
            payload: connection(
                features: feature(
                    triggers: trigger(fields: "null," + Self.location) + "," + trigger(#""t2""#, fields: otherPlace))),
            verdict: .documented("A `null` or another non-object among a trigger's fields")),
        Row(
            name: "lat given as the Boolean true",
            payload: connection(
                features: feature(triggers: trigger(fields: field(#"{"lat":true,"lng":-122.4075,"radius":150}"#)))),
            verdict: .documented("A coordinate or radius given as a Boolean")),
        Row(
            name: "radius 50 m",
            payload: connection(
                features: feature(triggers: trigger(fields: field(#"{"lat":37.784,"lng":-122.4075,"radius":50}"#)))),
            verdict: .documented("Radius below 100 m")),
        Row(
            name: "radius 0",
            payload: connection(
                features: feature(triggers: trigger(fields: field(#"{"lat":37.784,"lng":-122.4075,"radius":0}"#)))),
            verdict: .documented("Radius below 100 m")),
        Row(
            name: "radius -5",
            payload: connection(
                features: feature(triggers: trigger(fields: field(#"{"lat":37.784,"lng":-122.4075,"radius":-5}"#)))),
            verdict: .documented("Negative radius")),
        Row(
            name: "latitude 95",
            payload: connection(
                features: feature(triggers: trigger(fields: field(#"{"lat":95,"lng":-122.4075,"radius":150}"#)))),
            verdict: .documented("Latitude outside -90...90")),
        Row(
            name: "latitude/longitude keys",
            payload: connection(
                features: feature(
                    triggers: trigger(fields: field(#"{"latitude":37.784,"longitude":-122.4075,"radius":150}"#)))),
            verdict: .documented("`latitude`/`longitude` keys")),
        Row(
            name: "a service without service_short_name",
            payload: connection(service: primary.replacingOccurrences(of: #""service_short_name":"GX","#, with: "")),
            verdict: .documented("Connection keys 2.8 required")),
    ]

    /// Our derivation, in 2.8's terms: the geofences the session monitors on a device whose maximum is
    /// ``deviceMaximum``, or `nil` when the Connection does not decode.
    static func ours(_ payload: Data) -> [ConnectSDK28Derivation.Region]? {
        guard let connection = try? Connection.decode(from: payload) else { return nil }
        return Geofence.geofences(for: [connection], radiusLimits: RadiusLimits(maximum: deviceMaximum)).map {
            ConnectSDK28Derivation.Region(
                identifier: $0.identifier, latitude: $0.center.latitude, longitude: $0.center.longitude,
                radius: $0.radius, uploadedSubscriptionId: $0.triggerSubscriptionId)
        }.sorted()
    }

    static func describe(_ regions: [ConnectSDK28Derivation.Region]?) -> String {
        guard let regions else { return "no Connection" }
        return regions.isEmpty ? "none" : regions.map(\.description).joined(separator: "; ")
    }

    static let article: String = {
        let url = Repository.url("Sources/IFTTTConnectLocation/IFTTTConnectLocation.docc/Geofences.md")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()

    @Test(arguments: rows)
    func eachPayloadIsDerivedAs28OrAsDocumented(row: Row) throws {
        let payload = Data(row.payload.utf8)
        #expect((try? JSONSerialization.jsonObject(with: payload)) != nil, "\(row): not JSON")
        let theirs = ConnectSDK28Derivation.monitoredRegions(
            payload, maximumRegionMonitoringDistance: Self.deviceMaximum)
        let ours = Self.ours(payload)
        switch row.verdict {
        case .same:
            #expect(ours == theirs, "2.8: \(Self.describe(theirs)); ours: \(Self.describe(ours))")
        case .documented(let phrase):
            #expect(ours != theirs, "\(row) is the same as 2.8: drop its documentation")
            #expect(Self.article.contains(phrase), "Geofences.md does not document \"\(phrase)\"")
        }
    }

    /// The table for the "Geofences" article and the report: payload, 2.8, ours, verdict.
    @Test func theParityTable() {
        var lines = ["payload | 2.8 | ours | verdict"]
        var same = 0
        for row in Self.rows {
            let payload = Data(row.payload.utf8)
            let theirs = ConnectSDK28Derivation.monitoredRegions(
                payload, maximumRegionMonitoringDistance: Self.deviceMaximum)
            let ours = Self.ours(payload)
            if case .same = row.verdict { same += 1 }
            lines.append("\(row.name) | \(Self.describe(theirs)) | \(Self.describe(ours)) | \(row.verdict)")
        }
        #expect(Self.rows.count >= 36)
        print("derivation parity (\(Self.rows.count) payloads, \(same) same):\n" + lines.joined(separator: "\n"))
    }

    /// The 2.8 port itself reads a known payload as 2.8's tests say (`Connection_ParsingTests.swift`: identifier
    /// `ifttt_<user feature trigger id>`, prefix stripped only for ids without `_`).
    @Test func thePortReadsTheKnownPayload() {
        let regions = ConnectSDK28Derivation.monitoredRegions(
            Data(Self.connection(features: Self.feature(triggers: Self.trigger(#""somecoolidentifier""#))).utf8),
            maximumRegionMonitoringDistance: Self.deviceMaximum)
        #expect(regions?.map(\.identifier) == ["ifttt_somecoolidentifier"])
        #expect(regions?.map(\.uploadedSubscriptionId) == ["somecoolidentifier"])
        #expect(regions?.first?.radius == 150)
    }
}
