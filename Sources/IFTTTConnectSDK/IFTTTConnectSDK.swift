// The module a ConnectSDK-iOS 2.8 app imports. `import IFTTTConnectSDK` brings the whole 2.8 API, as it did in
// 2.8: the Connect API client, the activation flow and the Connect Button (IFTTTConnectCore) and the location
// API that 2.8 declared on `ConnectButtonController` (IFTTTConnectLocation). Apps that do not geofence depend on
// the `IFTTTConnectCore` product instead, which does not link CoreLocation or BackgroundTasks.
//
// The re-exports carry the Sandbox SPI along: `@_spi(Sandbox) import IFTTTConnectSDK` (the sandbox and the CLI)
// sees the SPI of both modules, a plain `import IFTTTConnectSDK` (an app) sees none of it.

@_spi(Sandbox) @_exported import IFTTTConnectCore
@_spi(Sandbox) @_exported import IFTTTConnectLocation
