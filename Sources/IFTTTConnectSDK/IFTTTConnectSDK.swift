// The module a ConnectSDK-iOS 2.8 app imports. `import IFTTTConnectSDK` brings the whole 2.8 API, as it did in
// 2.8: the Connect API client, the activation flow and the Connect Button (IFTTTConnectCore) and the location
// API that 2.8 declared on `ConnectButtonController` (IFTTTConnectLocation). Apps that do not geofence depend on
// the `IFTTTConnectCore` product instead, which does not link CoreLocation or BackgroundTasks.

@_exported import IFTTTConnectCore
@_exported import IFTTTConnectLocation
