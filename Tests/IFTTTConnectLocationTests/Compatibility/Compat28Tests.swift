import Foundation
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore
import TestSupport
@_spi(Sandbox) @testable import IFTTTConnectLocation

#if canImport(CoreLocation)
import CoreLocation
#endif

/// ConnectSDK-iOS 2.8's feature triggers, lifecycle option descriptions and assignable standard options.
@Suite("2.8 location shapes")
struct Compat28LocationTests {
    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: Repository.url("Tests/Fixtures/\(name)"))
    }

    /// A feature whose triggers are given as JSON.
    static func feature(_ triggers: String...) throws -> Connection.Feature {
        let json = #"""
            {"type":"connection","id":"gx","name":"N","description":"D","url":"https://ifttt.com/gx",
             "services":[{"service_id":"gx","service_name":"GX","is_primary":true}],
             "features":[{"id":"f1","title":"F","feature_triggers":[\#(triggers.joined(separator: ","))]}]}
            """#
        return try #require(try Connection.decode(from: Data(json.utf8)).features.first)
    }

    static func trigger(
        _ id: String, fieldId: String = "location", type: String? = nil,
        value: String = #"{"lat":37.5,"lng":-122.5,"radius":250}"#
    ) -> String {
        let typeKey = type.map { #""type":"\#($0)","# } ?? ""
        return #"{"id":"\#(id)","fields":[{"id":"\#(fieldId)",\#(typeKey)"default_value":\#(value)}]}"#
    }

    @Test func theFeatureTriggerOf28sOwnFixtureGivesItsRegion() throws {
        let connection = try Connection.decode(from: Self.fixture("ios_fetch_connection_response.json"))
        let regions = try #require(connection.features.first).defaultLocationRegions
        #expect(regions.map(\.identifier) == ["ifttt_fyzcn9umx5"])
        #expect(regions.first?.latitude == 37.78383800416815)
        #expect(regions.first?.longitude == -122.40843300000002)
        #expect(regions.first?.radius == 316.2010756871335)
        #expect(regions.first?.transitions == [.enter])  // its field's type is LOCATION_ENTER
    }

    @Test func onlyAFirstLocationFieldWithARadiusAndATriggerIdCounts() throws {
        let noRadius = #"{"lat":37.5,"lng":-122.5}"#
        let feature = try Self.feature(
            Self.trigger("a", type: "LOCATION_EXIT"), Self.trigger("b", fieldId: "address"),
            Self.trigger("c", value: noRadius), Self.trigger(""), Self.trigger("a", type: "LOCATION_ENTER"),
            Self.trigger("d", type: "LOCATION_ENTER"))
        #expect(feature.defaultLocationRegions.map(\.identifier) == ["ifttt_a", "ifttt_d"])
        #expect(feature.defaultLocationRegions.map(\.transitions) == [[.exit], [.enter]])
    }

    @Test func lifecycleOptionsDescribeThemselvesAs28Did() {
        #expect(
            ApplicationLifecycleSynchronizationOptions.all.description
                == "ApplicationDidBecomeActive, ApplicationDidEnterBackground")
        #expect(
            "\(ApplicationLifecycleSynchronizationOptions.applicationDidEnterBackground)"
                == "ApplicationDidEnterBackground")
        #expect(
            ApplicationLifecycleSynchronizationOptions.applicationDidBecomeActive.description
                == "ApplicationDidBecomeActive")
        #expect(ApplicationLifecycleSynchronizationOptions.none.description == "")
    }

    #if canImport(CoreLocation)
    @Test func triggersAreCircularRegionsEqualByIdentifier() throws {
        let feature = try Self.feature(Self.trigger("a", type: "LOCATION_EXIT"), Self.trigger("d"))
        let triggers: Set<Trigger> = feature.locationTriggers
        #expect(Set(triggers.map(\.identifier)) == ["ifttt_a", "ifttt_d"])
        for case .location(let region) in triggers where region.identifier == "ifttt_a" {
            #expect(region.center.latitude == 37.5 && region.center.longitude == -122.5 && region.radius == 250)
            #expect(!region.notifyOnEntry && region.notifyOnExit)
        }
        let moved = Trigger(
            LocationRegion(
                triggerSubscriptionId: "a", connectionId: "other", latitude: 1, longitude: 2, radius: 3,
                transitions: [.enter]))
        #expect(triggers.contains(moved))
        #expect(feature.triggers.count == 2)  // `triggers` is the feature's steps
    }
    #endif
}

extension SynchronizationFacadeTests {
    /// 2.8 apps may assign `InitializerOptions.standard`, from any thread; `initialize()` without options then
    /// uses it. In the serialized suite of the static API, which owns process-wide state.
    @Test func theStandardOptionsAreAssignableAndAreInitializesDefault() async {
        let previous = InitializerOptions.standard
        let h = SyncHarness()
        let shared = ConnectButtonController.synchronizer
        defer {
            InitializerOptions.standard = previous
            ConnectButtonController.synchronizer = shared
            ConnectButtonController.stopObservingButtonOutcomes()
            h.cleanUp()
        }
        #expect(previous == InitializerOptions())
        await Task.detached {
            InitializerOptions.standard = InitializerOptions(enableSDKBackgroundProcess: true)
            InitializerOptions.standard.showPermissionsPrompts = true
        }.value
        #expect(
            InitializerOptions.standard
                == InitializerOptions(enableSDKBackgroundProcess: true, showPermissionsPrompts: true))
        ConnectButtonController.synchronizer = h.synchronizer
        ConnectButtonController.initialize()
        await h.synchronizer.waitUntilIdle()
        #expect(await h.synchronizer.options == InitializerOptions.standard)
        #expect(h.scheduler.registrationCount == 1)  // enableSDKBackgroundProcess registered the SDK's task
    }
}
