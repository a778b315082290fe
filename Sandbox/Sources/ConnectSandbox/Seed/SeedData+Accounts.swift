import Foundation

// The account record types of the seed format: services, users and partner accounts. Keys are snake_case, as in
// the IFTTT wire format; optional keys fall back to the documented defaults. `docs/sandbox-seed-file.md` describes
// every key.

extension SeedData {
    /// An IFTTT service (a "channel"), e.g. `grocery_express`.
    public struct Service: Codable, Sendable, Equatable {
        /// The service id (`service_id` on the wire), e.g. `grocery_express`.
        public var id: String
        /// The display name (`service_name`).
        public var name: String
        /// The short name (`service_short_name`). Defaults to `name`.
        public var shortName: String
        /// The brand colour as `#RRGGBB`.
        public var brandColor: String
        /// The service's page. Defaults to `https://ifttt.com/{id}`.
        public var url: String
        /// The secret key the service's backend sends as `IFTTT-Service-Key`. `nil` means the service has no backend
        /// access to the sandbox.
        public var serviceKey: String?
        /// An absolute monochrome icon URL. `nil` (the default) means the sandbox serves `/assets/icons/{id}.png`.
        public var monochromeIconURL: String?
        /// An absolute colour icon URL. `nil` (the default) means the sandbox serves `/assets/icons/color/{id}.png`.
        public var colorIconURL: String?
        /// The redirect URLs registered for the service's apps and sites (IFTTT's "embedded redirects"): the web
        /// activation's `sdk_return_to`, the Connect URL's `redirect_uri` and the legacy embed's `redirect_uri` must
        /// match one (see ``RedirectRegistration``). Default `[]`: no redirect is accepted.
        public var redirectURIs: [String]

        /// Creates a service.
        public init(
            id: String, name: String, shortName: String? = nil, brandColor: String, url: String? = nil,
            serviceKey: String? = nil, monochromeIconURL: String? = nil, colorIconURL: String? = nil,
            redirectURIs: [String] = []
        ) {
            self.id = id
            self.name = name
            self.shortName = shortName ?? name
            self.brandColor = brandColor
            self.url = url ?? "https://ifttt.com/\(id)"
            self.serviceKey = serviceKey
            self.monochromeIconURL = monochromeIconURL
            self.colorIconURL = colorIconURL
            self.redirectURIs = redirectURIs
        }

        enum CodingKeys: String, CodingKey {
            case id, name
            case shortName = "short_name"
            case brandColor = "brand_color"
            case url
            case serviceKey = "service_key"
            case monochromeIconURL = "monochrome_icon_url"
            case colorIconURL = "color_icon_url"
            case redirectURIs = "redirect_uris"
        }

        /// Decodes a service; `short_name`, `url` and `redirect_uris` are optional.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                id: try c.decode(String.self, forKey: .id),
                name: try c.decode(String.self, forKey: .name),
                shortName: try c.decodeIfPresent(String.self, forKey: .shortName),
                brandColor: try c.decode(String.self, forKey: .brandColor),
                url: try c.decodeIfPresent(String.self, forKey: .url),
                serviceKey: try c.decodeIfPresent(String.self, forKey: .serviceKey),
                monochromeIconURL: try c.decodeIfPresent(String.self, forKey: .monochromeIconURL),
                colorIconURL: try c.decodeIfPresent(String.self, forKey: .colorIconURL),
                redirectURIs: try c.decodeIfPresent([String].self, forKey: .redirectURIs) ?? [])
        }
    }

    /// An IFTTT user of the sandbox.
    public struct User: Codable, Sendable, Equatable {
        /// The IFTTT user id, e.g. `alice`.
        public var id: String
        /// The login (`user_login` of `/v2/me`). Defaults to `id`.
        public var login: String
        /// The e-mail address; unique, compared case-insensitively.
        public var email: String
        /// The password for the web sign-in pages. `nil` means the user cannot sign in with a password. A seed file
        /// gives it in plain text; the store keeps only a salted hash (``SandboxStore/exportSeed()`` returns the hash, which loads
        /// back unchanged).
        public var password: String?
        /// User tokens (`Authorization: Bearer ...`) that identify this user. A user may have several.
        public var tokens: [String]

        /// Creates a user.
        public init(id: String, login: String? = nil, email: String, password: String? = nil, tokens: [String] = []) {
            self.id = id
            self.login = login ?? id
            self.email = email
            self.password = password
            self.tokens = tokens
        }

        enum CodingKeys: String, CodingKey { case id, login, email, password, tokens }

        /// Decodes a user; `login`, `password` and `tokens` are optional.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                id: try c.decode(String.self, forKey: .id),
                login: try c.decodeIfPresent(String.self, forKey: .login),
                email: try c.decode(String.self, forKey: .email),
                password: try c.decodeIfPresent(String.self, forKey: .password),
                tokens: try c.decodeIfPresent([String].self, forKey: .tokens) ?? [])
        }
    }

    /// A user account on a partner service, used by the token exchange (`POST /v2/user_token`).
    public struct PartnerAccount: Codable, Sendable, Equatable {
        /// The partner service, e.g. `grocery_express`.
        public var serviceId: String
        /// The partner's own user id (the `user_id` query parameter of service-key calls), e.g. `gx-user-1001`.
        public var partnerUserId: String
        /// The partner's OAuth access token for this user (`access_token` of `/v2/user_token`).
        public var accessToken: String
        /// The partner's OAuth authorization code for this user (used by the web activation flow).
        public var oauthCode: String?
        /// The IFTTT user this partner account is linked to; `nil` when no IFTTT user has connected it.
        public var userId: String?
        /// The username on the partner's own sign-in page (the service's OAuth authorization page that the
        /// activation pages send a user through when the flow has no valid `code`). `nil`: no sign-in.
        public var login: String?
        /// The password of the partner's sign-in page. Stored as a salted hash; in a seed file, plain text.
        public var password: String?

        /// Creates a partner account.
        public init(
            serviceId: String, partnerUserId: String, accessToken: String, oauthCode: String? = nil,
            userId: String? = nil, login: String? = nil, password: String? = nil
        ) {
            self.serviceId = serviceId
            self.partnerUserId = partnerUserId
            self.accessToken = accessToken
            self.oauthCode = oauthCode
            self.userId = userId
            self.login = login
            self.password = password
        }

        enum CodingKeys: String, CodingKey {
            case serviceId = "service_id"
            case partnerUserId = "partner_user_id"
            case accessToken = "access_token"
            case oauthCode = "oauth_code"
            case userId = "user_id"
            case login, password
        }

        /// Encodes the account; `user_id` is written as `null` when unlinked.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(serviceId, forKey: .serviceId)
            try c.encode(partnerUserId, forKey: .partnerUserId)
            try c.encode(accessToken, forKey: .accessToken)
            try c.encodeIfPresent(oauthCode, forKey: .oauthCode)
            try c.encode(userId, forKey: .userId)
            try c.encodeIfPresent(login, forKey: .login)
            try c.encodeIfPresent(password, forKey: .password)
        }
    }
}
