import Foundation
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectLocation

@Suite("Geofences from Connections")
struct GeofenceTests {
    /// A Connection with four location triggers (both value shapes, every field type) plus a disabled feature
    /// and a text trigger.
    static let connectionJSON = #"""
        {"type":"connection","id":"gx","name":"N","description":"D","url":"https://ifttt.com/gx","user_status":"enabled",
         "services":[{"service_id":"gx","service_name":"GX","is_primary":true}],
         "user_connection":{"user_features":[
          {"id":"u1","feature_id":"f1","enabled":true,"user_feature_triggers":[
            {"id":"enter_only","feature_trigger_id":"t1","user_fields":[{"field_id":"location","field_type":"LOCATION_ENTER","value":{"lat":"37.0","lng":"-122.0","radius":"5"}}]},
            {"id":"exit_only","feature_trigger_id":"t2","user_fields":[{"field_id":"location","field_type":"LOCATION_EXIT","value":{"latitude":37.1,"longitude":-122.1,"radius":500000}}]},
            {"id":"both_and","feature_trigger_id":"t3","user_fields":[{"field_id":"location","field_type":"LOCATION_ENTER_AND_EXIT","value":{"lat":37.2,"lng":-122.2,"radius":300}}]},
            {"id":"sub_with_under_scores","feature_trigger_id":"t4","user_fields":[{"field_id":"location","field_type":"LOCATION_ENTER_OR_EXIT","value":{"lat":37.3,"lng":-122.3,"radius":0}}]},
            {"id":"text","feature_trigger_id":"t5","user_fields":[{"field_id":"path","field_type":"TEXT_FIELD","value":"/x"}]}]},
          {"id":"u2","feature_id":"f2","enabled":false,"user_feature_triggers":[
            {"id":"disabled","feature_trigger_id":"t6","user_fields":[{"field_id":"location","field_type":"LOCATION_ENTER","value":{"lat":1,"lng":1,"radius":200}}]}]}]}}
        """#

    static func connection(status: String = "enabled") throws -> Connection {
        try Connection.decode(
            from: Data(
                connectionJSON.replacingOccurrences(
                    of: #""user_status":"enabled""#, with: #""user_status":"\#(status)""#
                ).utf8))
    }

    @Test func derivesOneGeofencePerEnabledLocationTrigger() throws {
        let fences = Geofence.geofences(
            for: [try Self.connection()], radiusLimits: RadiusLimits(minimum: 100, maximum: 100_000))
        #expect(
            fences.map(\.identifier) == [
                "ifttt_enter_only", "ifttt_exit_only", "ifttt_both_and", "ifttt_sub_with_under_scores",
            ])
        #expect(fences.map(\.transitions) == [.enter, .exit, [.enter, .exit], [.enter, .exit]])
        #expect(fences[0].radius == 100)  // raised to the minimum
        #expect(fences[1].radius == 100_000)  // clamped to the platform maximum
        #expect(fences[2].radius == 300)
        #expect(fences[3].radius == 100)  // radius 0: raised to the minimum
        #expect(fences[3].triggerSubscriptionId == "sub_with_under_scores")
        #expect(fences[1].center == Coordinate(latitude: 37.1, longitude: -122.1))
    }

    @Test func recordsOnlyTheAskedTransitionsButMonitorsBoth() throws {
        let fences = Geofence.geofences(for: [try Self.connection()])
        #expect(fences[0].records(.entry) && !fences[0].records(.exit))
        #expect(!fences[1].records(.entry) && fences[1].records(.exit))
        #expect(fences.allSatisfy { $0.monitoredRegion.notifyOnEntry && $0.monitoredRegion.notifyOnExit })
    }

    @Test func disabledConnectionsHaveNoGeofences() throws {
        #expect(Geofence.geofences(for: [try Self.connection(status: "disabled")]).isEmpty)
    }

    @Test func duplicateIdentifiersKeepTheFirst() throws {
        let c = try Self.connection()
        #expect(Geofence.geofences(for: [c, c]).count == 4)
    }

    @Test func ownershipIsByRegistrationNotByName() {
        var selector = RegionSelector(ownedIdentifiers: ["ifttt_a_b"])
        #expect(selector.owns("ifttt_a_b"))
        #expect(!selector.owns("ifttt_c"))  // an `ifttt_` name alone does not make a region the SDK's
        #expect(!selector.owns(RegionSelector.refreshRegionIdentifier))
        _ = selector.handle(.monitoredRegionsObserved([]), now: epoch)
        #expect(!selector.owns("ifttt_a_b"))  // no longer monitored: forgotten
    }

    @Test func distancesAreGreatCircle() {
        // One degree of latitude is about 111.2 km on the mean sphere.
        let d = Coordinate(latitude: 0, longitude: 0).distance(to: Coordinate(latitude: 1, longitude: 0))
        #expect(abs(d - 111_195) < 1)
        #expect(Coordinate(latitude: 10, longitude: 10).distance(to: Coordinate(latitude: 10, longitude: 10)) == 0)
    }
}
