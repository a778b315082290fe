import Foundation
import Hummingbird
@_spi(Sandbox) import IFTTTConnectSDK

/// Renders the connection JSON of `GET /v2/connections/{id}` (and of `enable`, `disable`, `PUT .../user_connection`)
/// in the wire format of IFTTT's "Show a Connection" example, with absolute sandbox URLs for what the sandbox serves.
struct ConnectionRenderer: Sendable {
    let urls: SandboxURLs

    /// The widths of `cover_image` (`480w_url` ...).
    static let coverWidths = [480, 720, 1080, 1440, 2160, 2880, 4320]

    /// The Connection's page on IFTTT, as every real payload has it: `https://ifttt.com/applets/{id}`.
    static func pageURL(connectionId: String) -> String {
        "https://ifttt.com/applets/\(SandboxURLs.segment(connectionId))"
    }

    /// The connection as seen by `viewer` (`nil`: anonymous or a service without a linked user → `user_status: null`
    /// and no `user_connection`).
    func render(_ snapshot: ConnectionSnapshot, viewer: SeedData.User?) -> JSONValue {
        let connection = snapshot.connection
        let primary = snapshot.services.first { $0.id == connection.primaryServiceId }
        let userConnection = viewer == nil ? nil : snapshot.userConnection
        var members: JSONObject = [
            "type": "connection",
            "id": .string(connection.id),
            "name": .string(connection.name),
            "description": .string(connection.description),
            "url": .string(Self.pageURL(connectionId: connection.id)),
            "user_status": snapshot.userStatus(viewer: viewer),
            "enabled_count": .number(Double(snapshot.enabledCount)),
            "services": .array(
                snapshot.services.map {
                    service($0, primaryId: connection.primaryServiceId, connection: connection, user: userConnection)
                }),
            "cover_image": coverImage(connection),
            "value_propositions": valuePropositions(connection, primary: primary),
            "features": .array(connection.features.map { feature($0, connection: connection, primary: primary) }),
        ]
        if let userConnection {
            members["user_connection"] = self.userConnection(userConnection, connection: connection)
        }
        return .object(members)
    }

    /// A service with its triggers, queries and actions in this Connection (the docs' `services[].triggers` ...,
    /// which IFTTT still sends beside the features; `user_triggers` ... only for a viewer with a configuration).
    func service(
        _ service: SeedData.Service, primaryId: String, connection: SeedData.Connection,
        user: SeedData.UserConnection?
    ) -> JSONValue {
        guard case .object(var members) = self.service(service, primaryId: primaryId) else { return .null }
        for kind in SeedData.StepKind.allCases {
            var seen = Set<String>()
            var operations: [JSONValue] = []
            for feature in connection.features {
                for step in feature.steps(kind) where step.serviceId == service.id && seen.insert(step.typeId).inserted
                {
                    operations.append(serviceOperation(step, connection: connection, user: user))
                }
            }
            members[kind.pathSegment] = .array(operations)
        }
        return .object(members)
    }

    /// One entry of `services[].triggers|queries|actions`: the step by its operation id, with the fields (whose
    /// `required`, `hidden` and `default_value` the docs mark deprecated there) and the user's values of every
    /// feature step that uses it.
    private func serviceOperation(
        _ step: SeedData.Step, connection: SeedData.Connection, user: SeedData.UserConnection?
    )
        -> JSONValue
    {
        var members: JSONObject = [
            "id": .string(step.operationId),
            "label": .string(step.label),
            "field_options_url": .string(urls.stepFieldOptions(connectionId: connection.id, step: step)),
            "run_url": .optional(urls.run(connectionId: connection.id, step: step)),
            "fields": .array(step.fields.map(field)),
        ]
        if let user {
            let stepIds = Set(
                connection.features.flatMap { $0.steps(step.kind) }.filter { $0.typeId == step.typeId }.map(\.id))
            let configured = user.userFeatures.flatMap { $0.userSteps(step.kind) }.filter {
                stepIds.contains($0.featureStepId)
            }
            members["user_\(step.kind.pathSegment)"] = .array(
                configured.map { userStep in
                    [
                        "run_url": .optional(urls.run(connectionId: connection.id, step: step)),
                        "fields": .array(userStep.userFields.map(Self.legacyUserField)),
                    ]
                })
        }
        return .object(members)
    }

    /// A user field in the deprecated `services[].…[].user_…[].fields` shape: `{id, value}`, with `group` and
    /// `label` beside the option's value for dropdowns.
    static func legacyUserField(_ field: SeedData.UserField) -> JSONValue {
        if let option = field.value.objectValue, let value = option["value"], option["label"] != nil {
            return [
                "id": .string(field.fieldId), "group": option["group"] ?? .null, "label": option["label"] ?? .null,
                "value": value,
            ]
        }
        return ["id": .string(field.fieldId), "value": field.value]
    }

    func service(_ service: SeedData.Service, primaryId: String) -> JSONValue {
        [
            "service_id": .string(service.id),
            "service_name": .string(service.name),
            "service_short_name": .string(service.shortName),
            "is_primary": .bool(service.id == primaryId),
            "monochrome_icon_url": .string(
                Self.webURL(service.monochromeIconURL) ?? urls.monochromeIcon(serviceId: service.id)),
            "color_icon_url": .string(Self.webURL(service.colorIconURL) ?? urls.colorIcon(serviceId: service.id)),
            "brand_color": .string(service.brandColor),
            "url": .string(Self.webURL(service.url) ?? "https://ifttt.com/\(service.id)"),
        ]
    }

    private func coverImage(_ connection: SeedData.Connection) -> JSONValue {
        if let cover = connection.coverImage {
            let width = { (key: String) in Int(key.prefix { $0.isNumber }) ?? Int.max }
            return .object(
                JSONObject(
                    cover.keys.sorted { (width($0), $0) < (width($1), $1) }.compactMap { key in
                        Self.webURL(cover[key]).map { (key, .string($0)) }
                    }))
        }
        return .object(
            JSONObject(
                Self.coverWidths.map { ("\($0)w_url", .string(urls.cover(connectionId: connection.id, width: $0))) }))
    }

    /// `url` when it is an absolute `http` or `https` URL with a host; `nil` otherwise (`javascript:`, `data:`, relative
    /// or malformed URLs never reach a rendered icon, SVG or HTML).
    static func webURL(_ url: String?) -> String? {
        guard let url, let parts = URLComponents(string: url.trimmingCharacters(in: .whitespaces)),
            let scheme = parts.scheme?.lowercased(), ["http", "https"].contains(scheme), let host = parts.host,
            !host.isEmpty,
            !url.contains(where: { $0.isWhitespace || $0 == "\"" || $0 == "<" || $0 == ">" })
        else { return nil }
        return url
    }

    private func featureIcon(_ feature: SeedData.Feature, primary: SeedData.Service?) -> JSONValue {
        if let icon = Self.webURL(feature.iconURL) { return .string(icon) }
        guard let primary else { return .null }
        return .string(Self.webURL(primary.colorIconURL) ?? urls.colorIcon(serviceId: primary.id))
    }

    private func valuePropositions(_ connection: SeedData.Connection, primary: SeedData.Service?) -> JSONValue {
        if let propositions = connection.valuePropositions {
            return .array(
                propositions.map {
                    ["description": .string($0.description), "icon_url": .optional(Self.webURL($0.iconURL))]
                })
        }
        return .array(
            connection.features.map {
                ["description": .string($0.title), "icon_url": featureIcon($0, primary: primary)]
            })
    }

    private func feature(_ feature: SeedData.Feature, connection: SeedData.Connection, primary: SeedData.Service?)
        -> JSONValue
    {
        var members: JSONObject = [
            "id": .string(feature.id),
            "title": .string(feature.title),
            "description": .string(feature.description),
            "icon_url": featureIcon(feature, primary: primary),
            "field_options_url": .string(urls.featureFieldOptions(connectionId: connection.id, featureId: feature.id)),
            "fields": .array(feature.fields.map(field)),
        ]
        for kind in SeedData.StepKind.allCases {
            members[kind.featureListKey] = .array(feature.steps(kind).map { step($0, connection: connection) })
        }
        return .object(members)
    }

    private func step(_ step: SeedData.Step, connection: SeedData.Connection) -> JSONValue {
        .object(
            JSONObject([
                ("id", .string(step.id)),
                (step.kind.operationKey, .string(step.operationId)),
                ("service_id", .string(step.serviceId)),
                ("label", .string(step.label)),
                ("field_options_url", .string(urls.stepFieldOptions(connectionId: connection.id, step: step))),
                ("run_url", .optional(urls.run(connectionId: connection.id, step: step))),
                ("fields", .array(step.fields.map(field))),
            ]))
    }

    private func field(_ field: SeedData.Field) -> JSONValue {
        [
            "id": .string(field.id),
            "label": .string(field.label),
            "type": .string(field.type),
            "required": .bool(field.required),
            "hidden": .bool(field.hidden),
            "default_value": Self.wireDefault(field),
        ]
    }

    /// A field's `default_value` as IFTTT sends it: a location default is
    /// `{"latitude","longitude","radius","address","description","zoom"}` with the numbers as strings (the docs'
    /// example and the Android SDK's fixture); seed files may write `lat`/`lng` and numbers.
    static func wireDefault(_ field: SeedData.Field) -> JSONValue {
        guard field.type.uppercased().hasPrefix("LOCATION_"), let object = field.defaultValue.objectValue else {
            return field.defaultValue
        }
        let renamed = ["lat": "latitude", "lng": "longitude"]
        return .object(
            JSONObject(
                object.members.map { member in
                    let key = renamed[member.key] ?? member.key
                    if case .number = member.value { return (key, .string(member.value.serialized())) }
                    return (key, member.value)
                }))
    }

    private func userConnection(_ userConnection: SeedData.UserConnection, connection: SeedData.Connection)
        -> JSONValue
    {
        let json: JSONObject = [
            "user_features": .array(
                userConnection.userFeatures.map { userFeature in
                    let feature = connection.feature(id: userFeature.featureId)
                    var members: JSONObject = [
                        "id": .optional(userFeature.id),
                        "feature_id": .string(userFeature.featureId),
                        "enabled": .bool(userFeature.enabled),
                        "user_fields": userFields(userFeature.userFields, definitions: feature?.fields ?? []),
                    ]
                    for kind in SeedData.StepKind.allCases {
                        let steps = userFeature.userSteps(kind).map { userStep -> JSONValue in
                            let definition = feature?.steps(kind).first { $0.id == userStep.featureStepId }
                            return .object(
                                JSONObject([
                                    ("id", .optional(userStep.id)),
                                    (kind.userStepReferenceKey, .string(userStep.featureStepId)),
                                    (
                                        "user_fields",
                                        userFields(userStep.userFields, definitions: definition?.fields ?? [])
                                    ),
                                ]))
                        }
                        members[kind.userListKey] = .array(steps)
                    }
                    return .object(members)
                })
        ]
        return .object(json)
    }

    /// `[{"field_id","field_type","value"}]`, in this key order (the Android parser needs `field_id` and `field_type`
    /// before `value`). A missing `field_type` comes from the definition, else `TEXT_FIELD`.
    private func userFields(_ fields: [SeedData.UserField], definitions: [SeedData.Field]) -> JSONValue {
        .array(
            fields.map { field in
                let type = field.fieldType ?? definitions.first { $0.id == field.fieldId }?.type ?? "TEXT_FIELD"
                return ["field_id": .string(field.fieldId), "field_type": .string(type), "value": field.value]
            })
    }
}

extension ConnectionSnapshot {
    /// `user_status` for `viewer` (the docs' "Show a Connection"; the legacy Applet has the same field): `null` when
    /// no user is known, `never_enabled` without a user connection, else its status.
    func userStatus(viewer: SeedData.User?) -> JSONValue {
        guard viewer != nil else { return .null }
        guard let userConnection else { return "never_enabled" }
        return .string(userConnection.status.rawValue)
    }
}

extension RouteEnvironment {
    /// The body of `GET /v2/connections/{id}` for `principal`: the rendered JSON, cached per (Connection, viewer) for
    /// the store's current generation, so it is rebuilt after every write that can change it (the Connection, its
    /// services, any user connection of it, users and tokens). Access is checked on every call, hit or miss.
    /// `generation` is one the request read before authenticating (the current one when `nil`).
    func renderedConnection(_ id: String, principal: Principal, request: Request, generation: UInt64? = nil)
        async throws -> ByteBuffer
    {
        let generation = generation ?? store.generation
        let key = RenderedConnectionKey(connectionId: id, userId: principal.user?.id)
        if let cached = store.caches.renderedConnections.value(for: key, generation: generation) {
            try cached.connection.checkAccess(by: principal, request: request)
            return cached.body
        }
        let snapshot = try await visibleConnection(id, principal: principal, request: request)
        let body = ByteBuffer(bytes: renderer.render(snapshot, viewer: principal.user).serializedData())
        store.caches.renderedConnections.store(
            RenderedConnection(connection: snapshot.connection, body: body), for: key, generation: generation)
        return body
    }
}

extension JSONResponse {
    /// A response whose body is already serialized JSON.
    static func make(serialized data: Data, status: HTTPResponse.Status = .ok) -> Response {
        make(serialized: ByteBuffer(bytes: data), status: status)
    }

    /// A response whose body is already serialized JSON in a buffer (shared, not copied: a cached body).
    static func make(serialized buffer: ByteBuffer, status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = JSONResponse.contentType
        return Response(status: status, headers: headers, body: .init(byteBuffer: buffer))
    }
}
