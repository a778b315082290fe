import Foundation

/// The closure that receives location event reports (ConnectSDK-iOS 2.8's name).
public typealias LocationEventsClosure = @Sendable ([LocationEvent]) -> Void

/// Why an event was not uploaded (the cases of ConnectSDK-iOS 2.8).
public enum EventUploadError: Error, Sendable, Hashable {
    /// 2.8 dropped every pending event, unsent, when more than 20 were waiting. This SDK drops no event for a
    /// count (it uploads in batches), so it never reports this case; it stays for 2.8 source compatibility.
    case crossedSanityThreshold
    /// The upload failed: a transport error, a server error or a 401 (the event stays and is sent again), or the
    /// server refused the event for good (then `LocationEvent/rejection` says why, and the event was moved to
    /// the dead-letter area).
    case networkError
}

/// What happened to a recorded geofence crossing, as reported to
/// `ConnectButtonController.setLocationEventReportedClosure(_:)`. The cases and labels are
/// those of ConnectSDK-iOS 2.8, so a 2.8 exhaustive `switch` compiles.
public enum LocationEvent: Sendable, Hashable {
    /// The crossing was recorded durably (its append to the event store returned).
    case reported(region: RegionEvent)
    /// An upload of the event started; `delay` is the time since it was recorded (or last failed), in seconds.
    case uploadAttempted(region: RegionEvent, delay: TimeInterval)
    /// The server accepted the event; `delay` is the time since the upload started, in seconds.
    case uploadSuccessful(region: RegionEvent, delay: TimeInterval)
    /// The upload failed; `delay` is the time since the upload started, in seconds. When the server refused
    /// the event for good, `region.rejection` (and `rejection`) carries the server's reason.
    case uploadFailed(region: RegionEvent, error: EventUploadError, delay: TimeInterval)

    /// The crossing this report is about.
    @_spi(Sandbox) public var regionEvent: RegionEvent {
        switch self {
        case .reported(let event), .uploadAttempted(let event, _), .uploadSuccessful(let event, _),
            .uploadFailed(let event, _, _):
            return event
        }
    }

    /// Why the server refused the event for good, for an ``uploadFailed(region:error:delay:)`` report of an event
    /// moved to the dead-letter area; `nil` for every other report.
    @_spi(Sandbox) public var rejection: EventRejection? {
        if case .uploadFailed(let event, _, _) = self { return event.rejection }
        return nil
    }
}
