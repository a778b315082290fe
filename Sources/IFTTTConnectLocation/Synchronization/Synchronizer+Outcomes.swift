import Foundation
import IFTTTConnectCore

// What the synchronizer does with a Connect Button's outcomes.
extension Synchronizer {
    // MARK: - Connect Button outcomes

    /// Acts on what a Connect Button did: an activation stores the Connection (and the token the redirect
    /// carried) and synchronizes; a deactivation removes it and synchronizes; a Connection shown on a button
    /// updates a stored one. Ignored while synchronization is inactive.
    package func handle(_ outcome: ConnectButtonOutcome) async {
        await start()
        guard engine.isActive else { return }
        switch outcome {
        case .activated(let activation, let credentials):
            if let token = activation.userToken ?? credentials.userToken, !token.isEmpty {
                await save(ConnectionCredentials(userToken: token, inviteCode: credentials.inviteCode))
            }
            var stored = StoredConnection(activation.connection)
            stored.status = Connection.Status.enabled.rawValue
            store(stored)
            await applyGeofences()
            request(.connectionEnabled, completion: nil)
        case .deactivated(let connection, _):
            do { try registry.remove(id: connection.id) } catch { logger.log("deactivation: \(error)") }
            await applyGeofences()
            request(.connectionDisabled, completion: nil)
        case .connectionShown(let connection, _):
            let stored = StoredConnection(connection)
            guard
                registry.connections[connection.id] != nil
                    || (connection.status == .enabled && stored.hasLocationTriggers == true)
            else { return }
            guard store(stored) else { return }
            await applyGeofences()
            request(.connectionShown, completion: nil)
        }
    }

    @discardableResult
    func store(_ connection: StoredConnection, persist: Bool = true) -> Bool {
        do { return try registry.update(connection, persist: persist) } catch {
            logger.log("cannot store Connection \(connection.id): \(error)")
            return false
        }
    }

    func persistRegistry() {
        do { try registry.save() } catch { logger.log("cannot save the Connections: \(error)") }
    }
}
