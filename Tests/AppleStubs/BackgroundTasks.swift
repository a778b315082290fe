// Test-only stub of Apple's BackgroundTasks: only what IFTTTConnectLocation's scheduler adapter and the example apps
// use, with the signatures and optionality of Apple's documentation (page beside each declaration). Not Apple's SDK.
@_exported import Foundation

/// https://developer.apple.com/documentation/backgroundtasks/bgtask (iOS 13+)
open class BGTask: NSObject {
    /// https://developer.apple.com/documentation/backgroundtasks/bgtask/identifier
    open var identifier: String { "" }
    /// https://developer.apple.com/documentation/backgroundtasks/bgtask/expirationhandler
    open var expirationHandler: (() -> Void)?
    /// https://developer.apple.com/documentation/backgroundtasks/bgtask/settaskcompleted(success:)
    open func setTaskCompleted(success: Bool) {}
}

/// https://developer.apple.com/documentation/backgroundtasks/bgprocessingtask
open class BGProcessingTask: BGTask {}

/// https://developer.apple.com/documentation/backgroundtasks/bgtaskrequest
open class BGTaskRequest: NSObject {
    /// https://developer.apple.com/documentation/backgroundtasks/bgtaskrequest/identifier
    public let identifier: String
    /// https://developer.apple.com/documentation/backgroundtasks/bgtaskrequest/earliestbegindate
    open var earliestBeginDate: Date?
    init(identifier: String) {
        self.identifier = identifier
        super.init()
    }
}

/// https://developer.apple.com/documentation/backgroundtasks/bgprocessingtaskrequest
open class BGProcessingTaskRequest: BGTaskRequest {
    /// https://developer.apple.com/documentation/backgroundtasks/bgprocessingtaskrequest/init(identifier:)
    public override init(identifier: String) { super.init(identifier: identifier) }
    /// https://developer.apple.com/documentation/backgroundtasks/bgprocessingtaskrequest/requiresnetworkconnectivity
    open var requiresNetworkConnectivity: Bool = false
    /// https://developer.apple.com/documentation/backgroundtasks/bgprocessingtaskrequest/requiresexternalpower
    open var requiresExternalPower: Bool = false
}

/// https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler
open class BGTaskScheduler: NSObject {
    /// https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/shared
    open class var shared: BGTaskScheduler { BGTaskScheduler() }
    /// https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/register(fortaskwithidentifier:using:launchhandler:)
    open func register(
        forTaskWithIdentifier identifier: String, using queue: DispatchQueue?,
        launchHandler: @escaping (BGTask) -> Void
    ) -> Bool { false }
    /// https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/submit(_:)
    open func submit(_ taskRequest: BGTaskRequest) throws {}
    /// https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/cancel(taskrequestwithidentifier:)
    open func cancel(taskRequestWithIdentifier identifier: String) {}
}
