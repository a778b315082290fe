import ConnectSandbox
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Sandbox: GET /v2/connections/{id}, enable, disable")
struct SandboxConnectionTests {
    @Test func anonymousConnectionHasTheWireShape() async throws {
        try await SandboxTest.withDemo { client in
            let response = try await client.get("/v2/connections/gx-weekly-deals")
            #expect(response.status == 200)
            #expect(response.contentType?.hasPrefix("application/json") == true)
            let json = try response.json
            #expect(json["type"] == "connection")
            #expect(json["id"] == "gx-weekly-deals")
            #expect(json["name"] == "Email me this week's deals")
            #expect(json["url"] == "https://ifttt.com/applets/gx-weekly-deals")
            #expect(json["user_status"] == .null)
            #expect(json["enabled_count"] == 1)  // alice enabled, bob disabled
            #expect(json["user_connection"] == nil)

            let services = try #require(json["services"]?.arrayValue)
            #expect(services.count == 2)
            let primary = try #require(json["services"]?.first(where: "service_id", is: "grocery_express"))
            #expect(primary["is_primary"] == true)
            #expect(primary["service_name"] == "Grocery Express")
            #expect(primary["service_short_name"] == "Grocery Express")
            #expect(primary["brand_color"] == "#1BAF5D")
            #expect(primary["url"] == "https://ifttt.com/grocery_express")
            let base = client.base.absoluteString
            #expect(primary["monochrome_icon_url"]?.stringValue == "\(base)/assets/icons/grocery_express.png")
            #expect(primary["color_icon_url"]?.stringValue == "\(base)/assets/icons/color/grocery_express.png")
            let email = try #require(json["services"]?.first(where: "service_id", is: "email"))
            #expect(email["is_primary"] == false)
            #expect(email["brand_color"] == "#0099FF")

            for width in ["480w_url", "720w_url", "1080w_url", "1440w_url", "2160w_url", "2880w_url"] {
                #expect(json["cover_image"]?[width]?.stringValue?.hasPrefix(base) == true, "\(width)")
            }
            #expect(json["value_propositions"]?[0]?["description"] != nil)
            #expect(json["value_propositions"]?[0]?["icon_url"] != nil)

            let feature = try #require(json["features"]?[0])
            #expect(feature["id"] == "weekly-deals-email")
            #expect(
                feature["field_options_url"]?.stringValue
                    == "\(base)/v2/connections/gx-weekly-deals/features/weekly-deals-email/field_options")
            #expect(feature["fields"] == [])
            #expect(feature["feature_queries"]?[0]?["query_id"] == "list_deals")
            let trigger = try #require(feature["feature_triggers"]?[0])
            #expect(trigger["id"] == "ft-weekly-deals")
            #expect(trigger["trigger_id"] == "new_weekly_deals")
            #expect(trigger["service_id"] == "grocery_express")
            #expect(trigger["run_url"] == .null)
            #expect(
                trigger["field_options_url"]?.stringValue
                    == "\(base)/v2/connections/gx-weekly-deals/triggers/grocery_express.new_weekly_deals/field_options")
            let store = try #require(trigger["fields"]?[0])
            #expect(store["id"] == "store")
            #expect(store["type"] == "COLLECTION_SELECT")
            #expect(store["required"] == true)
            #expect(store["hidden"] == false)
            #expect(store["default_value"] == .null)
            let action = try #require(feature["feature_actions"]?[0])
            #expect(action["action_id"] == "send_me_email")
            #expect(action["service_id"] == "email")
            #expect(
                action["run_url"]?.stringValue
                    == "\(base)/v2/connections/gx-weekly-deals/actions/email.send_me_email/run")
            #expect(action["fields"]?[0]?["type"] == "TEXT_FIELD")

            // Key order of the top level follows IFTTT: "type" first.
            let text = String(decoding: response.data, as: UTF8.self)
            #expect(text.hasPrefix("{\"type\":\"connection\",\"id\":\"gx-weekly-deals\""))
        }
    }

    @Test func userSeesTheirStatusAndUserConnection() async throws {
        try await SandboxTest.withDemo { client in
            let alice = try await client.get("/v2/connections/gx-arrive-store", token: SandboxTest.aliceToken)
            #expect(alice.status == 200)
            let json = try alice.json
            #expect(json["user_status"] == "enabled")
            let userFeature = try #require(json["user_connection"]?["user_features"]?[0])
            #expect(userFeature["feature_id"] == "arrive-show-list")
            #expect(userFeature["enabled"] == true)
            let trigger = try #require(userFeature["user_feature_triggers"]?[0])
            #expect(trigger["id"] == "alice-arrive-trigger-1")
            #expect(trigger["feature_trigger_id"] == "ft-arrive-store")
            let field = try #require(trigger["user_fields"]?[0])
            #expect(field["field_id"] == "location")
            #expect(field["field_type"] == "LOCATION_ENTER")
            #expect(field["value"]?["lat"] == 37.784)
            #expect(field["value"]?["lng"] == -122.4075)
            #expect(field["value"]?["radius"] == 150)
            #expect(field["value"]?["address"] == "923 Market St")
            // Android's parser needs field_id and field_type before value.
            let text = String(decoding: alice.data, as: UTF8.self)
            #expect(text.contains("{\"field_id\":\"location\",\"field_type\":\"LOCATION_ENTER\",\"value\":{"))

            let definition = try #require(json["features"]?[0]?["feature_triggers"]?[0]?["fields"]?[0])
            #expect(definition["type"] == "LOCATION_ENTER")
            // As in the docs' example and the Android SDK's fixture: latitude and longitude, numbers as strings.
            #expect(definition["default_value"]?["latitude"] == "37.784")
            #expect(definition["default_value"]?["zoom"] == "16")
            #expect(json["services"]?.first(where: "service_id", is: "location")?["brand_color"] == "#1D7CF2")

            let bob = try await client.get("/v2/connections/gx-weekly-deals", token: SandboxTest.bobToken)
            #expect(try bob.json["user_status"] == "disabled")
            #expect(try bob.json["user_connection"]?["user_features"]?[0]?["id"] == "bob-deals-feature")

            let carol = try await client.get("/v2/connections/gx-weekly-deals", token: SandboxTest.carolToken)
            #expect(try carol.json["user_status"] == "never_enabled")
            #expect(try carol.json["user_connection"] == nil)
        }
    }

    @Test func otherLocationDefaultShapeIsKept() async throws {
        try await SandboxTest.withDemo { client in
            let json = try await client.get("/v2/connections/gx-store-visits").json
            let field = try #require(json["features"]?[0]?["feature_triggers"]?[0]?["fields"]?[0])
            #expect(field["type"] == "LOCATION_ENTER_AND_EXIT")
            #expect(field["default_value"]?["latitude"] == "37.7765")
            #expect(field["default_value"]?["longitude"] == "-122.4172")
            #expect(field["default_value"]?["radius"] == "200")
            #expect(json["features"]?[0]?["feature_triggers"]?[0]?["trigger_id"] == "enter_or_exit_region_location")
        }
    }

    @Test func serviceKeyActsForTheLinkedUser() async throws {
        try await SandboxTest.withDemo { client in
            let asAlice = try await client.get(
                "/v2/connections/gx-weekly-deals", query: ["user_id": "gx-user-1001"],
                serviceKey: SandboxTest.serviceKey)
            #expect(asAlice.status == 200)
            #expect(try asAlice.json["user_status"] == "enabled")

            let noUser = try await client.get("/v2/connections/gx-weekly-deals", serviceKey: SandboxTest.serviceKey)
            #expect(noUser.status == 200)
            #expect(try noUser.json["user_status"] == .null)

            let wrongKey = try await client.get("/v2/connections/gx-weekly-deals", serviceKey: "nope")
            #expect(wrongKey.status == 401)
            #expect(wrongKey.errorCode == "unauthorized")
        }
    }

    @Test func unknownConnectionAndInvalidToken() async throws {
        try await SandboxTest.withDemo { client in
            let missing = try await client.get("/v2/connections/does-not-exist")
            #expect(missing.status == 404)
            let envelope = try missing.json
            #expect(envelope["type"] == "error")
            #expect(envelope["code"] == "not_found")
            #expect(envelope["message"]?.stringValue?.isEmpty == false)
            #expect(envelope["details"] == [])
            #expect(missing.contentType?.hasPrefix("application/json") == true)

            let badToken = try await client.get("/v2/connections/gx-weekly-deals", token: "not-a-token")
            #expect(badToken.status == 401)
            #expect(badToken.errorCode == "unauthorized")
            #expect(!String(decoding: badToken.data, as: UTF8.self).contains("not-a-token"))
        }
    }

    @Test func unpublishedConnectionNeedsTheInviteCode() async throws {
        try await SandboxTest.withDemo { client in
            let path = "/v2/connections/gx-early-access"
            let anonymous = try await client.get(path)
            #expect(anonymous.status == 403)
            #expect(anonymous.errorCode == "forbidden")
            let wrongCode = try await client.get(path, token: SandboxTest.aliceToken, inviteCode: "guess")
            #expect(wrongCode.status == 403)
            let withCode = try await client.get(path, inviteCode: "gx-invite-2026")
            #expect(withCode.status == 200)
            #expect(try withCode.json["name"] == "Early access: restock alerts")
            let asService = try await client.get(path, serviceKey: SandboxTest.serviceKey)
            #expect(asService.status == 200)
            let services = try withCode.json["services"]?.arrayValue?.compactMap { $0["service_id"]?.stringValue }
            #expect(services == ["grocery_express", "if_notifications"])
        }
    }

    @Test func disableAndEnable() async throws {
        try await SandboxTest.withDemo { client in
            let disabled = try await client.post(
                "/v2/connections/gx-weekly-deals/disable", token: SandboxTest.aliceToken)
            #expect(disabled.status == 200)
            #expect(try disabled.json["user_status"] == "disabled")
            #expect(try disabled.json["enabled_count"] == 0)
            #expect(try disabled.json["user_connection"] != nil)

            let fetched = try await client.get("/v2/connections/gx-weekly-deals", token: SandboxTest.aliceToken)
            #expect(try fetched.json["user_status"] == "disabled")

            let enabled = try await client.post("/v2/connections/gx-weekly-deals/enable", token: SandboxTest.bobToken)
            #expect(enabled.status == 200)
            #expect(try enabled.json["user_status"] == "enabled")
            #expect(try enabled.json["enabled_count"] == 1)
        }
    }

    @Test func disableAndEnableAuthorizationRules() async throws {
        try await SandboxTest.withDemo { client in
            let noAuth = try await client.post("/v2/connections/gx-weekly-deals/disable")
            #expect(noAuth.status == 401)
            #expect(noAuth.errorCode == "unauthorized")

            let serviceKey = try await client.post(
                "/v2/connections/gx-weekly-deals/disable", query: ["user_id": "gx-user-1001"],
                serviceKey: SandboxTest.serviceKey)
            #expect(serviceKey.status == 403)
            #expect(serviceKey.errorCode == "forbidden")
            let serviceKeyEnable = try await client.post(
                "/v2/connections/gx-weekly-deals/enable", serviceKey: SandboxTest.serviceKey)
            #expect(serviceKeyEnable.status == 403)

            let carol = try await client.post("/v2/connections/gx-weekly-deals/disable", token: SandboxTest.carolToken)
            #expect(carol.status == 404)
            #expect(carol.errorCode == "not_found")

            let unknown = try await client.post("/v2/connections/nope/enable", token: SandboxTest.aliceToken)
            #expect(unknown.status == 404)

            let invalid = try await client.post("/v2/connections/gx-weekly-deals/enable", token: "bad")
            #expect(invalid.status == 401)
        }
    }

    @Test func assetsAreServed() async throws {
        try await SandboxTest.withDemo { client in
            // PNG, as IFTTT serves icons: white initials on transparent, or on the brand colour (#1BAF5D).
            let icon = try await client.get("/assets/icons/grocery_express.png")
            #expect(icon.status == 200)
            #expect(icon.contentType == "image/png")
            let mono = try PNGReader(icon.data)
            #expect(mono.width == 120 && mono.height == 120)
            #expect(mono.pixel(x: 0, y: 0) == [0, 0, 0, 0], "transparent around the glyphs")
            #expect(mono.pixels.count(where: { $0 == 255 }) > 0, "some white glyph pixels")
            let color = try PNGReader(try await client.get("/assets/icons/color/grocery_express.png").data)
            #expect(color.pixel(x: 0, y: 0) == [0, 0, 0, 0], "rounded corner")
            #expect(color.pixel(x: 60, y: 4) == [0x1B, 0xAF, 0x5D, 255], "brand colour")
            // "GE": the G's left stroke is white, in both.
            #expect(mono.pixel(x: 16 + 4, y: 32 + 8 + 4) == [255, 255, 255, 255])
            #expect(color.pixel(x: 16 + 4, y: 32 + 8 + 4) == [255, 255, 255, 255])
            // The same icons stay available as SVG for browsers.
            let svgIcon = try await client.get("/assets/icons/grocery_express.svg")
            #expect(svgIcon.contentType == "image/svg+xml")
            let svg = String(decoding: svgIcon.data, as: UTF8.self)
            #expect(svg.contains("<svg") && svg.contains("#FFFFFF"))
            #expect(try await client.get("/assets/icons/unknown.png").status == 404)
            #expect(try await client.get("/assets/icons/grocery_express.gif").status == 404)
            let json = try await client.get("/v2/connections/gx-weekly-deals").json
            let coverURL = try #require(json["cover_image"]?["720w_url"]?.stringValue.flatMap(URL.init(string:)))
            let (data, response) = try await URLSession.shared.data(from: coverURL)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(String(decoding: data, as: UTF8.self).contains("width=\"720\""))
            #expect(try await client.get("/assets/icons/unknown.svg").status == 404)
        }
    }
}
