import Foundation
import IFTTTConnectCore

// Geofences, recorded crossings and their reports, the event store and the credentials.
extension Synchronizer {
    // MARK: - Geofences, events, credentials

    func applyGeofences() async {
        guard let session else { return }
        let limits = await session.effectiveRadiusLimits
        let fences =
            engine.isActive
            ? registry.all.filter { geofenceToggles.isEnabled($0.id) }.flatMap { $0.geofences(radiusLimits: limits) }
            : []
        await session.update(geofences: fences)
        if options.showPermissionsPrompts, !fences.isEmpty, !permissionsRequested,
            let requester = configuration.permissionRequester
        {
            permissionsRequested = true
            await requester()
        }
    }

    func recorded(_ event: RegionEvent) {
        eventDates[event.recordId] = configuration.clock.now
        logger.log("recorded \(event.transition.rawValue) of \(event.triggerSubscriptionId)")
        hooks.withLock { $0 }.locationEvents?([.reported(region: event)])
        request(.regionEvent, completion: nil)
    }

    func uploadProgress(_ progress: LocationUploader.Progress) {
        let now = configuration.clock.now
        func delay(_ event: RegionEvent) -> TimeInterval {
            now.timeIntervalSince(eventDates[event.recordId] ?? event.occurredAt)
        }
        let reports: [LocationEvent]
        switch progress {
        case .attempted(let batch):
            reports = batch.map { .uploadAttempted(region: $0, delay: delay($0)) }
            for event in batch { eventDates[event.recordId] = now }
        case .succeeded(let batch):
            reports = batch.map { .uploadSuccessful(region: $0, delay: delay($0)) }
            for event in batch { eventDates[event.recordId] = nil }
        case .failed(let batch, _):
            reports = batch.map { .uploadFailed(region: $0, error: .networkError, delay: delay($0)) }
            for event in batch { eventDates[event.recordId] = now }
        case .rejected(let letters):
            reports = letters.map { letter in
                var event = letter.event
                event.rejection = letter.rejection
                return .uploadFailed(region: event, error: .networkError, delay: delay(letter.event))
            }
            for letter in letters {
                eventDates[letter.event.recordId] = nil
                logger.log(
                    "the server refused the \(letter.event.transition.rawValue) of \(letter.event.triggerSubscriptionId) (\(letter.rejection.statusCode): \(letter.rejection.reason)); it was moved to the dead-letter area"
                )
            }
        }
        hooks.withLock { $0 }.locationEvents?(reports)
    }

    /// Opens the event store (and the uploader) if it is not open; `nil` when it cannot be opened (then
    /// ``storageError`` says why and the next crossing or run tries again).
    func openStore() -> LocationEventStore? {
        if let store { return store }
        let logger = self.logger
        do {
            let store = try LocationEventStore(
                directory: configuration.storageDirectory, logHandler: { logger.log($0) })
            self.store = store
            if storeError != nil { logger.log("the event store opened") }
            storeError = nil
            uploader = LocationUploader(
                store: store, configuration: .init(network: networkSettings(), scheduler: configuration.upload),
                tokenProvider: { [weak self] in await self?.currentToken() },
                clock: configuration.clock, random: configuration.random,
                progressHandler: { [weak self] progress in await self?.uploadProgress(progress) })
            return store
        } catch {
            if storeError != error {
                logger.log(
                    "the event store cannot be opened (\(error)); crossings wait in memory and synchronization fails until it opens"
                )
            }
            storeError = error
            return nil
        }
    }

    func currentToken() -> String? { vault.read()?.userToken }

    func save(_ credentials: any ConnectionCredentialProvider) async {
        do {
            try vault.write(userToken: credentials.userToken, inviteCode: credentials.inviteCode)
        } catch {
            logger.log("the credentials could not be saved: \(error)")
        }
        logger.setSecrets([credentials.userToken, credentials.inviteCode])
        perform(engine.handle(.credentialsUpdated))
        if let uploader, await uploader.schedulerState.isPausedForAuthentication { await uploader.resume() }
    }
}
