import Foundation
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore

@Suite("Shared fixtures decode with the right values")
struct FixtureDecodingTests {
    @Test func everyConnectionFixtureDecodes() throws {
        let names = try Fixtures.allNames().filter { !$0.contains("legacy") }
        #expect(names.count >= 3)
        for name in names {
            let connection = try Connection.decode(from: Fixtures.data(name))
            #expect(!connection.id.isEmpty, "\(name)")
            #expect(connection.services.contains { $0.isPrimary }, "\(name)")
        }
    }

    @Test func iosFetchConnectionResponse() throws {
        let connection = try Connection.decode(from: Fixtures.data("ios_fetch_connection_response.json"))
        #expect(connection.id == "LMhuSZW9")
        #expect(connection.status == .enabled)
        #expect(connection.url.absoluteString == "https://ifttt.com/applets/LMhuSZW9")
        #expect(connection.enabledCount == 12)
        #expect(connection.primaryService.id == "twitch")
        #expect(connection.connectingService.id == "youtube")
        #expect(connection.worksWithServices.map(\.id) == ["youtube"])
        #expect(connection.primaryService.brandColor == ConnectColor(red: 0x64, green: 0x41, blue: 0xA5))
        #expect(connection.coverImages.map(\.width) == [480, 720, 1080, 1440, 2160, 2880, 4320])
        #expect(connection.coverImage(forPixelWidth: 1600)?.width == 1440)
        #expect(connection.coverImage(forPixelWidth: 100)?.width == 480)
        let feature = try #require(connection.features.first)
        #expect(feature.id == "wb6v52fyhl")
        let trigger = try #require(feature.triggers.first)
        #expect(trigger.id == "fyzcn9umx5")
        #expect(trigger.qualifiedTypeId == "location.enter_region_location")
        #expect(trigger.runURL == nil)
        let field = try #require(trigger.fields.first)
        #expect(field.type == .locationEnter)
        #expect(field.isRequired)
        let defaultLocation = try #require(field.defaultValue?.location)
        #expect(defaultLocation.latitude == 37.78383800416815)
        #expect(defaultLocation.longitude == -122.40843300000002)
        #expect(defaultLocation.zoom == 16)
        // The user feature points at a feature that is not listed: tolerated.
        let userFeature = try #require(connection.userConnection?.userFeatures.first)
        #expect(userFeature.featureId == "qharvmtjdh")
        #expect(connection.userFeatures(for: feature).isEmpty)
        let userField = try #require(userFeature.triggers.first?.userFields.first)
        #expect(userField.fieldType == nil)
        #expect(userField.value.location?.zoom == nil)
        let regions = connection.locationRegions
        #expect(regions.count == 1)
        #expect(regions.first?.identifier == "ifttt_somecoolidentifier")
        #expect(regions.first?.triggerSubscriptionId == "somecoolidentifier")
        #expect(regions.first?.latitude == 12.4567892)
        #expect(regions.first?.radius == 123.456789)
        #expect(regions.first?.transitions == [.enter, .exit])  // no field type anywhere: both, like the original
    }

    @Test func androidConnection() throws {
        let connection = try Connection.decode(from: Fixtures.data("android_connection.json"))
        #expect(connection.id == "aVxGRrtD")
        #expect(connection.status == .unknown)  // user_status: null
        #expect(connection.coverImages.isEmpty)  // cover_image: null
        #expect(connection.primaryService.id == "instagram")
        #expect(connection.connectingService.id == "twitter")
        #expect(connection.features.count == 2)
        #expect(connection.features[0].title == "Required feature")
        #expect(
            connection.features[0].actions.first?.runURL?.absoluteString
                == "https://connect.ifttt.com/v2/connections/aVxGRrtD/actions/google_drive.upload_file_from_url_google_drive/run"
        )
        let defaultValue = try #require(connection.features[1].triggers.first?.fields.first?.defaultValue?.location)
        #expect(defaultValue.latitude == 37.78383800416815)  // "latitude" given as a string
        #expect(defaultValue.radius == 316.2010756871335)
        let first = try #require(connection.userConnection?.userFeatures.first)
        #expect(first.id == "5c7f6d49-5fa9-4305-a7db-39ca38484e6e")
        #expect(first.featureId == "pmtch6832j")
        #expect(first.triggers.first?.stepId == "606")
        #expect(first.triggers.first?.id == "707")
        #expect(first.triggers.first?.userFields.first?.value == .string("/IFTTT"))
        #expect(first.actions.first?.id == "557")
        #expect(connection.userFeatures(for: connection.features[0]).count == 1)
        let regions = connection.locationRegions
        #expect(regions.map(\.identifier) == ["ifttt_666"])
        #expect(regions.first?.transitions == .enter)
        #expect(regions.first?.radius == 316.2010756871335)  // string radius
        #expect(regions.first?.latitude == 37.78383800416815)
    }

    @Test func androidConnectionEnabled() throws {
        let plain = try Connection.decode(from: Fixtures.data("android_connection.json"))
        let enabled = try Connection.decode(from: Fixtures.data("android_connection_enabled.json"))
        #expect(enabled.status == .enabled)
        #expect(enabled.features == plain.features)
        #expect(enabled.locationRegions == plain.locationRegions)
    }

    @Test func legacyAppletFixtureIsNotAConnection() throws {
        // The legacy applet shape has `type: "applet"`: the Connection decoder names the problem.
        #expect(throws: ConnectDecodingError.self) {
            try Connection.decode(from: Fixtures.data("android_legacy_applet_2018.json"))
        }
        let json = try JSONParser().parse(Fixtures.data("android_legacy_applet_2018.json"))
        #expect(json["type"]?.stringValue == "applet")
    }
}
