import Foundation

/// A Connection: a service's integration that a user turns on, as the Connect API describes it
/// (`GET /v2/connections/{id}`).
///
/// Decode one with `Connection/decode(from:)` or fetch one with `ConnectionNetworkController`.
///
/// As in ConnectSDK-iOS 2.8, two Connections are equal (and hash alike) when their ``id``s are equal, whatever
/// their status or content; compare everything with `hasSameContent(as:)`.
public struct Connection: Sendable, Hashable, Identifiable {
    /// The user's status for this Connection.
    public enum Status: String, Sendable, Hashable, CaseIterable {
        /// The user has never turned the Connection on (`never_enabled`).
        case initial = "never_enabled"
        /// The Connection is on for the user (`enabled`).
        case enabled
        /// The user turned the Connection off (`disabled`).
        case disabled
        /// No user was authenticated, or the API sent a status this SDK does not know.
        case unknown

        init(wireValue: String?) {
            guard let wireValue, let status = Status(rawValue: wireValue) else {
                self = .unknown
                return
            }
            self = status
        }
    }

    /// The Connection's id, such as `"gx-arrive-store"`.
    public let id: String
    /// The Connection's name.
    public let name: String
    /// The Connection's description (empty when the API sends none).
    public let description: String
    /// The Connection's page on ifttt.com.
    public let url: URL
    /// The user's status. `unknown` when the request carried no user token (`user_status` is `null`).
    public let status: Status
    /// Every service of the Connection, in API order.
    public let services: [Service]
    /// The cover images, sorted by width.
    @_spi(Sandbox) public let coverImages: [CoverImage]
    /// Value propositions (deprecated by IFTTT in favour of features).
    public let valuePropositions: [ValueProposition]
    /// The features, each with its triggers, queries and actions.
    public let features: [Feature]
    /// The authenticated user's configuration, present when the user has this Connection.
    @_spi(Sandbox) public let userConnection: UserConnection?
    /// How many users turned the Connection on, when the API says.
    @_spi(Sandbox) public let enabledCount: Int?

    /// Creates a Connection from its parts. There must be exactly one primary service.
    @_spi(Sandbox) public init(
        id: String,
        name: String,
        description: String,
        url: URL,
        status: Status,
        services: [Service],
        coverImages: [CoverImage] = [],
        valuePropositions: [ValueProposition] = [],
        features: [Feature] = [],
        userConnection: UserConnection? = nil,
        enabledCount: Int? = nil
    ) throws(ConnectDecodingError) {
        guard services.contains(where: \.isPrimary) else {
            throw ConnectDecodingError(path: "$.services", reason: .noPrimaryService)
        }
        self.id = id
        self.name = name
        self.description = description
        self.url = url
        self.status = status
        self.services = services
        self.coverImages = coverImages.sorted { $0.width < $1.width }
        self.valuePropositions = valuePropositions
        self.features = features
        self.userConnection = userConnection
        self.enabledCount = enabledCount
    }

    /// The Connection's primary service: the service that owns it.
    public var primaryService: Service {
        // The initializers guarantee one exists.
        services.first(where: \.isPrimary) ?? services[0]
    }

    /// The services the Connection works with: every service that is not primary.
    public var worksWithServices: [Service] {
        services.filter { !$0.isPrimary }
    }

    /// The service the user connects to: the first non-primary service, or the primary service when the
    /// Connection has only one. It brands the Connect Button.
    public var connectingService: Service {
        worksWithServices.first ?? primaryService
    }

    /// The user's features for a feature of this Connection (none when the user has not enabled it).
    @_spi(Sandbox) public func userFeatures(for feature: Feature) -> [UserFeature] {
        userConnection?.userFeatures.filter { $0.featureId == feature.id } ?? []
    }

    /// The cover image to show at `pixelWidth`: the widest one narrower than 1.2 × `pixelWidth`, else the narrowest.
    @_spi(Sandbox) public func coverImage(forPixelWidth pixelWidth: Double) -> CoverImage? {
        coverImages.last(where: { Double($0.width) < 1.2 * pixelWidth }) ?? coverImages.first
    }

    /// The cover image of exactly `size`, or `nil` when the Connection has none of that width (2.8's API).
    ///
    /// - Parameter size: The width wanted.
    /// - Returns: The cover image.
    public func coverImage(size: CoverImage.Size) -> CoverImage? {
        coverImages.first { $0.width == size.rawValue }
    }

    #if canImport(UIKit)
    /// The best cover image for a layout `estimatedLayoutWidth` points wide at `scale` (2.8's API): the widest
    /// image narrower than 1.2 × the width in pixels, else the narrowest.
    ///
    /// - Parameters:
    ///   - estimatedLayoutWidth: The width of the image's container, in points.
    ///   - scale: The screen scale.
    /// - Returns: The cover image.
    public func coverImage(for estimatedLayoutWidth: CGFloat, scale: CGFloat) -> CoverImage? {
        coverImage(forPixelWidth: Double(estimatedLayoutWidth * scale))
    }
    #else
    /// The best cover image for a layout `estimatedLayoutWidth` points wide at `scale` (2.8's API): the widest
    /// image narrower than 1.2 × the width in pixels, else the narrowest.
    ///
    /// - Parameters:
    ///   - estimatedLayoutWidth: The width of the image's container, in points.
    ///   - scale: The screen scale; default 1.
    /// - Returns: The cover image.
    public func coverImage(for estimatedLayoutWidth: CGFloat, scale: CGFloat = 1) -> CoverImage? {
        coverImage(forPixelWidth: Double(estimatedLayoutWidth * scale))
    }
    #endif

    /// Whether two Connections are equal by ``id``, as in ConnectSDK-iOS 2.8.
    public static func == (lhs: Connection, rhs: Connection) -> Bool {
        lhs.id == rhs.id
    }

    /// Hashes the ``id``.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
    }

    /// Whether every property of the two Connections is equal (status, services, features, user
    /// configuration, ...), unlike `==`, which compares ids only.
    ///
    /// - Parameter other: The other Connection.
    /// - Returns: `true` when nothing differs.
    @_spi(Sandbox) public func hasSameContent(as other: Connection) -> Bool {
        id == other.id && name == other.name && description == other.description && url == other.url
            && status == other.status && services == other.services && coverImages == other.coverImages
            && valuePropositions == other.valuePropositions && features == other.features
            && userConnection == other.userConnection && enabledCount == other.enabledCount
    }
}

extension Connection {
    /// A cover image of one width.
    public struct CoverImage: Sendable, Hashable {
        /// The widths of ConnectSDK-iOS 2.8, in pixels.
        public enum Size: Int, Sendable, Hashable, CaseIterable {
            /// 480 pixels wide.
            case w480 = 480
            /// 720 pixels wide.
            case w720 = 720
            /// 1080 pixels wide.
            case w1080 = 1080
            /// 1440 pixels wide.
            case w1440 = 1440
            /// 2160 pixels wide.
            case w2160 = 2160
            /// 2880 pixels wide.
            case w2880 = 2880
        }

        /// The width in pixels (480, 720, 1080, 1440, 2160, 2880, 4320, ...).
        @_spi(Sandbox) public let width: Int
        /// Where the image is.
        public let url: URL

        /// The image's width as a 2.8 ``Size``: the largest size not wider than the image (480 for narrower
        /// images), so a 4320-pixel image reports ``Size/w2880``.
        public var size: Size {
            Size.allCases.last { $0.rawValue <= width } ?? .w480
        }

        /// Creates a cover image.
        @_spi(Sandbox) public init(width: Int, url: URL) {
            self.width = width
            self.url = url
        }
    }

    /// A short statement of what the Connection does, with an icon (deprecated by IFTTT).
    public struct ValueProposition: Sendable, Hashable {
        /// The text.
        @_spi(Sandbox) public let description: String
        /// The icon, when valid.
        public let iconURL: URL?

        /// The text.
        public var details: String { description }

        /// Creates a value proposition.
        @_spi(Sandbox) public init(description: String, iconURL: URL?) {
            self.description = description
            self.iconURL = iconURL
        }
    }
}
