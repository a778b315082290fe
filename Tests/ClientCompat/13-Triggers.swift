// 2.8's `Trigger`: the geofences a Connection's features define, read as `CLCircularRegion`s
// (2.8's `Feature.triggers` is `Feature.locationTriggers` here; `triggers` is the feature's steps).
import Foundation
import IFTTTConnectSDK

#if canImport(CoreLocation)
import CoreLocation

func featureRegions(of connection: Connection) -> [CLCircularRegion] {
    connection.features.flatMap(\.locationTriggers).compactMap { trigger -> CLCircularRegion? in
        switch trigger {
        case .location(let region): return region
        }
    }
}

func hasTrigger(_ identifier: String, in feature: Connection.Feature) -> Bool {
    feature.locationTriggers.contains { $0.identifier == identifier }
}
#endif
