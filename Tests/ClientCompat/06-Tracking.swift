// Seed README, "Tracking": opt out of analytics at launch, from a stored preference.
import Foundation
import IFTTTConnectSDK

func applyTrackingPreference(userAllowsTracking: Bool) {
    ConnectButtonController.analyticsEnabled = userAllowsTracking
}

func disableTracking() {
    ConnectButtonController.analyticsEnabled = false
    let enabled: Bool = ConnectButtonController.analyticsEnabled
    print(enabled)
}
