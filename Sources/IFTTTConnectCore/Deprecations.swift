import Foundation

// Every name this module keeps only so that code written against ConnectSDK-iOS 2.8 or an earlier release of this SDK
// still compiles, in one place (as Nuke and Hummingbird keep theirs), each marked with what replaces it. They are
// listed in the migration article (MigratingFrom28.md). The SDK's own code and tests use none of them; 2.8's public
// API that is still current (the names `Tests/ClientCompat` type-checks) is not here and not deprecated.

/// The name ``ConnectClock`` had before it served every engine; the same protocol.
@available(*, deprecated, renamed: "ConnectClock")
public typealias ActivationClock = ConnectClock

/// The name ``SystemConnectClock`` had before it served every engine; the same type.
@available(*, deprecated, renamed: "SystemConnectClock")
public typealias SystemActivationClock = SystemConnectClock

extension AnalyticsUploader {
    /// Creates an uploader that reads the time from a closure (the spelling before ``ConnectClock``).
    ///
    /// - Parameters:
    ///   - network: Where and how to send, and the anonymous id.
    ///   - queue: The batching limits.
    ///   - analyticsSwitch: The opt-out.
    ///   - now: The wall-clock time; waits use the system clock.
    @available(*, deprecated, renamed: "init(network:queue:analyticsSwitch:clock:)")
    public init(
        network: ConnectionNetworkController.Configuration,
        queue: AnalyticsQueue.Configuration = AnalyticsQueue.Configuration(),
        analyticsSwitch: AnalyticsSwitch = .shared,
        now: @escaping @Sendable () -> Date
    ) {
        self.init(network: network, queue: queue, analyticsSwitch: analyticsSwitch, clock: ClosureClock(now))
    }
}

extension ConnectionNetworkController {
    /// Replaces the user's configuration of a Connection and returns it as it now is.
    ///
    /// - Important: IFTTT's Connect API answers this call only when it is authenticated with the service key and
    ///   `user_id`, never with a user token; call `ConnectServiceClient.updateUserConnection(connectionId:userId:update:)`
    ///   of the IFTTTConnectService product from your backend. The sandbox refuses a user token here with 401, as IFTTT does.
    @available(*, deprecated, message: "IFTTT needs the service key: use ConnectServiceClient.updateUserConnection")
    public func updateUserConnection(
        with id: String, update: UserConnectionUpdate,
        credentialProvider: any ConnectionCredentialProvider
    ) async throws(ConnectAPIError) -> Connection {
        try await start(
            request: .updateUserConnection(with: id, update: update, credentialProvider: credentialProvider))
    }

    /// Fetches the options of a step's fields, such as the stores a `COLLECTION_SELECT` offers.
    ///
    /// - Important: IFTTT's Connect API answers `field_options` only with the service key and `user_id`, never with a
    ///   user token; call `ConnectServiceClient.fetchFieldOptions(connectionId:for:userId:)` of the IFTTTConnectService
    ///   product from your backend. The sandbox refuses a user token here with 401, as IFTTT does.
    @available(*, deprecated, message: "IFTTT needs the service key: use ConnectServiceClient.fetchFieldOptions")
    public func fetchFieldOptions(
        connectionId: String, step: Connection.Step,
        credentialProvider: any ConnectionCredentialProvider
    ) async throws(ConnectAPIError) -> FieldOptions {
        try await fetchFieldOptions(
            path: ["connections", connectionId, step.kind.pathSegment, step.qualifiedTypeId, "field_options"],
            credentialProvider: credentialProvider)
    }

    /// Fetches the options of a feature's own fields.
    ///
    /// - Important: IFTTT answers this only with the service key and `user_id`; see
    ///   ``fetchFieldOptions(connectionId:step:credentialProvider:)``.
    @available(*, deprecated, message: "IFTTT needs the service key: use ConnectServiceClient.fetchFieldOptions")
    public func fetchFieldOptions(
        connectionId: String, feature: Connection.Feature,
        credentialProvider: any ConnectionCredentialProvider
    ) async throws(ConnectAPIError) -> FieldOptions {
        try await fetchFieldOptions(
            path: ["connections", connectionId, "features", feature.id, "field_options"],
            credentialProvider: credentialProvider)
    }

    /// Completion-handler form of ``updateUserConnection(with:update:credentialProvider:)``.
    @available(*, deprecated, message: "IFTTT needs the service key: use ConnectServiceClient.updateUserConnection")
    @discardableResult
    public func updateUserConnection(
        with id: String, update: UserConnectionUpdate, credentialProvider: any ConnectionCredentialProvider,
        completion: @escaping @Sendable (Result<Connection, ConnectAPIError>) -> Void
    ) -> Task<Void, Never> {
        let credentialProvider = ConnectionCredentials(snapshotOf: credentialProvider)
        return run(
            { () async throws(ConnectAPIError) in
                try await self.updateUserConnection(with: id, update: update, credentialProvider: credentialProvider)
            }, completion)
    }

    /// Completion-handler form of ``fetchFieldOptions(connectionId:step:credentialProvider:)``.
    @available(*, deprecated, message: "IFTTT needs the service key: use ConnectServiceClient.fetchFieldOptions")
    @discardableResult
    public func fetchFieldOptions(
        connectionId: String, step: Connection.Step, credentialProvider: any ConnectionCredentialProvider,
        completion: @escaping @Sendable (Result<FieldOptions, ConnectAPIError>) -> Void
    ) -> Task<Void, Never> {
        let credentialProvider = ConnectionCredentials(snapshotOf: credentialProvider)
        return run(
            { () async throws(ConnectAPIError) in
                try await self.fetchFieldOptions(
                    connectionId: connectionId, step: step, credentialProvider: credentialProvider)
            }, completion)
    }
}

extension Connection.Request {
    /// Replaces the user's configuration of a Connection, for example after the activation flow skipped
    /// configuration. IFTTT answers it only with the service key and `user_id`, not with a user token.
    @available(*, deprecated, message: "IFTTT needs the service key: use ConnectServiceClient.updateUserConnection")
    public static func updateUserConnection(
        with id: String, update: UserConnectionUpdate,
        credentialProvider: any ConnectionCredentialProvider
    ) -> Connection.Request {
        Connection.Request(
            connectionId: id, action: .updateUserConnection(update), credentialProvider: credentialProvider)
    }
}
