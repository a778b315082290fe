import Foundation

/// Builds a realistic Connection payload with many features.
public enum SyntheticPayload {
    /// A Connection with `count` features (every fourth one a location trigger) and a user connection for each.
    public static func connection(features count: Int) -> Data {
        var features: [String] = []
        var userFeatures: [String] = []
        for i in 0..<count {
            let location = i % 4 == 0
            let field =
                location
                ? #"{"id":"location","label":"Locate an area","type":"LOCATION_ENTER","required":true,"hidden":false,"default_value":{"latitude":"37.78\#(i)","longitude":"-122.40\#(i)","radius":"316.2","address":"\#(i) Market St","zoom":"16"}}"#
                : #"{"id":"path","label":"Folder path","type":"TEXT_FIELD","required":true,"hidden":false,"default_value":"/IFTTT/\#(i)"}"#
            features.append(
                #"""
                {"id":"feature\#(i)","title":"Feature number \#(i)","description":"Does thing \#(i) for you","icon_url":"https://ifttt.com/value-prop-icons/babble.png","field_options_url":"https://connect.ifttt.com/v2/connections/synthetic/features/feature\#(i)/field_options","fields":[],"feature_triggers":[{"id":"trigger\#(i)","trigger_id":"\#(location ? "enter_region_location" : "any_new_file")","service_id":"\#(location ? "location" : "google_drive")","label":"Trigger \#(i)","field_options_url":"https://connect.ifttt.com/v2/connections/synthetic/triggers/location.enter_region_location/field_options","run_url":null,"fields":[\#(field)]}],"feature_queries":[],"feature_actions":[{"id":"action\#(i)","action_id":"upload_file","service_id":"google_drive","label":"Upload \#(i)","field_options_url":"https://connect.ifttt.com/v2/connections/synthetic/actions/google_drive.upload_file/field_options","run_url":"https://connect.ifttt.com/v2/connections/synthetic/actions/google_drive.upload_file/run","fields":[{"id":"url","label":"File URL","type":"TEXT_FIELD","required":true,"hidden":false,"default_value":"https://example.com/\#(i)"}]}]}
                """#)
            let value =
                location
                ? #"{"lat":"37.7\#(i)","lng":"-122.4\#(i)","radius":"200","address":"\#(i) Main St","description":"Store \#(i)","zoom":"16"}"#
                : #""/IFTTT/\#(i)""#
            userFeatures.append(
                #"""
                {"id":"uf-\#(i)","feature_id":"feature\#(i)","user_fields":[],"enabled":true,"user_feature_triggers":[{"feature_trigger_id":"trigger\#(i)","id":"sub_\#(i)","user_fields":[{"field_id":"\#(location ? "location" : "path")","field_type":"\#(location ? "LOCATION_ENTER" : "TEXT_FIELD")","value":\#(value)}]}],"user_feature_queries":[],"user_feature_actions":[]}
                """#)
        }
        let text = #"""
            {"type":"connection","id":"synthetic","name":"A Connection with \#(count) features","description":"Synthetic payload for benchmarks","url":"https://ifttt.com/connect/synthetic","enabled_count":1234,"user_status":"enabled",
            "services":[{"service_id":"grocery_express","service_name":"Grocery Express","service_short_name":"Grocery Express","is_primary":true,"monochrome_icon_url":"https://assets.ifttt.com/m.png","color_icon_url":"https://assets.ifttt.com/c.png","brand_color":"#1BAF5D","url":"https://ifttt.com/grocery_express"},{"service_id":"location","service_name":"Location","service_short_name":"Location","is_primary":false,"monochrome_icon_url":"https://assets.ifttt.com/l.png","color_icon_url":"https://assets.ifttt.com/lc.png","brand_color":"#1D7CF2","url":"https://ifttt.com/location"}],
            "cover_image":{"480w_url":"https://ifttt.com/480w","720w_url":"https://ifttt.com/720w","1080w_url":"https://ifttt.com/1080w"},
            "features":[\#(features.joined(separator: ","))],
            "user_connection":{"user_features":[\#(userFeatures.joined(separator: ","))]}}
            """#
        return Data(text.utf8)
    }
}
