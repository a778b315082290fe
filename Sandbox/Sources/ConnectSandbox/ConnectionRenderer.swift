import Foundation
import Hummingbird

/// Renders the connection JSON of `GET /v2/connections/{id}` (and of `enable`, `disable`, `PUT .../user_connection`)
/// in the IFTTT wire format, with absolute sandbox URLs.
struct ConnectionRenderer: Sendable {
    let urls: SandboxURLs

    /// The widths of `cover_image` (`480w_url` ...).
    static let coverWidths = [480, 720, 1080, 1440, 2160, 2880, 4320]

    /// The connection as seen by `viewer` (`nil`: anonymous or a service without a linked user → `user_status: null`
    /// and no `user_connection`).
    func render(_ snapshot: ConnectionSnapshot, viewer: SeedData.User?) -> SandboxJSON {
        let connection = snapshot.connection
        let primary = snapshot.services.first { $0.id == connection.primaryServiceId }
        let userStatus: SandboxJSON
        if viewer == nil {
            userStatus = .null
        } else if let userConnection = snapshot.userConnection {
            userStatus = .string(userConnection.status.rawValue)
        } else {
            userStatus = "never_enabled"
        }

        var members: [SandboxJSON.Member] = [
            .init("type", "connection"),
            .init("id", .string(connection.id)),
            .init("name", .string(connection.name)),
            .init("description", .string(connection.description)),
            .init("url", .string("https://ifttt.com/connect/\(connection.id)")),
            .init("user_status", userStatus),
            .init("enabled_count", .number(Double(snapshot.enabledCount))),
            .init("services", .array(snapshot.services.map { service($0, primaryId: connection.primaryServiceId) })),
            .init("cover_image", coverImage(connection)),
            .init("value_propositions", valuePropositions(connection, primary: primary)),
            .init(
                "features", .array(connection.features.map { feature($0, connection: connection, primary: primary) })),
        ]
        if viewer != nil, let userConnection = snapshot.userConnection {
            members.append(.init("user_connection", self.userConnection(userConnection, connection: connection)))
        }
        return .object(members)
    }

    func service(_ service: SeedData.Service, primaryId: String) -> SandboxJSON {
        [
            "service_id": .string(service.id),
            "service_name": .string(service.name),
            "service_short_name": .string(service.shortName),
            "is_primary": .bool(service.id == primaryId),
            "monochrome_icon_url": .string(
                Self.webURL(service.monochromeIconURL) ?? urls.monochromeIcon(serviceId: service.id)),
            "color_icon_url": .string(Self.webURL(service.colorIconURL) ?? urls.colorIcon(serviceId: service.id)),
            "brand_color": .string(service.brandColor),
            "url": .string(service.url),
        ]
    }

    private func coverImage(_ connection: SeedData.Connection) -> SandboxJSON {
        if let cover = connection.coverImage {
            let width = { (key: String) in Int(key.prefix { $0.isNumber }) ?? Int.max }
            return .object(
                cover.keys.sorted { (width($0), $0) < (width($1), $1) }.map {
                    SandboxJSON.Member($0, .string(cover[$0]!))
                })
        }
        return .object(
            Self.coverWidths.map {
                SandboxJSON.Member("\($0)w_url", .string(urls.cover(connectionId: connection.id, width: $0)))
            })
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

    private func featureIcon(_ feature: SeedData.Feature, primary: SeedData.Service?) -> SandboxJSON {
        if let icon = Self.webURL(feature.iconURL) { return .string(icon) }
        guard let primary else { return .null }
        return .string(Self.webURL(primary.colorIconURL) ?? urls.colorIcon(serviceId: primary.id))
    }

    private func valuePropositions(_ connection: SeedData.Connection, primary: SeedData.Service?) -> SandboxJSON {
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
        -> SandboxJSON
    {
        var members: [SandboxJSON.Member] = [
            .init("id", .string(feature.id)),
            .init("title", .string(feature.title)),
            .init("description", .string(feature.description)),
            .init("icon_url", featureIcon(feature, primary: primary)),
            .init(
                "field_options_url",
                .string(urls.featureFieldOptions(connectionId: connection.id, featureId: feature.id))),
            .init("fields", .array(feature.fields.map(field))),
        ]
        for kind in SeedData.StepKind.allCases {
            members.append(
                .init(kind.featureListKey, .array(feature.steps(kind).map { step($0, connection: connection) })))
        }
        return .object(members)
    }

    private func step(_ step: SeedData.Step, connection: SeedData.Connection) -> SandboxJSON {
        .object([
            .init("id", .string(step.id)),
            .init(step.kind.operationKey, .string(step.operationId)),
            .init("service_id", .string(step.serviceId)),
            .init("label", .string(step.label)),
            .init("field_options_url", .string(urls.stepFieldOptions(connectionId: connection.id, step: step))),
            .init("run_url", .optional(urls.run(connectionId: connection.id, step: step))),
            .init("fields", .array(step.fields.map(field))),
        ])
    }

    private func field(_ field: SeedData.Field) -> SandboxJSON {
        [
            "id": .string(field.id),
            "label": .string(field.label),
            "type": .string(field.type),
            "required": .bool(field.required),
            "hidden": .bool(field.hidden),
            "default_value": field.defaultValue,
        ]
    }

    private func userConnection(_ userConnection: SeedData.UserConnection, connection: SeedData.Connection)
        -> SandboxJSON
    {
        let json: SandboxJSON = [
            "user_features": .array(
                userConnection.userFeatures.map { userFeature in
                    let feature = connection.feature(id: userFeature.featureId)
                    var members: [SandboxJSON.Member] = [
                        .init("id", .optional(userFeature.id)),
                        .init("feature_id", .string(userFeature.featureId)),
                        .init("enabled", .bool(userFeature.enabled)),
                        .init("user_fields", userFields(userFeature.userFields, definitions: feature?.fields ?? [])),
                    ]
                    for kind in SeedData.StepKind.allCases {
                        let steps = userFeature.userSteps(kind).map { userStep -> SandboxJSON in
                            let definition = feature?.steps(kind).first { $0.id == userStep.featureStepId }
                            return .object([
                                .init("id", .optional(userStep.id)),
                                .init(kind.userStepReferenceKey, .string(userStep.featureStepId)),
                                .init(
                                    "user_fields",
                                    userFields(userStep.userFields, definitions: definition?.fields ?? [])),
                            ])
                        }
                        members.append(.init(kind.userListKey, .array(steps)))
                    }
                    return .object(members)
                })
        ]
        return json.adding("pending", .bool(true), if: userConnection.pending)
    }

    /// `[{"field_id","field_type","value"}]`, in this key order (the Android parser needs `field_id` and `field_type`
    /// before `value`). A missing `field_type` comes from the definition, else `TEXT_FIELD`.
    private func userFields(_ fields: [SeedData.UserField], definitions: [SeedData.Field]) -> SandboxJSON {
        .array(
            fields.map { field in
                let type = field.fieldType ?? definitions.first { $0.id == field.fieldId }?.type ?? "TEXT_FIELD"
                return ["field_id": .string(field.fieldId), "field_type": .string(type), "value": field.value]
            })
    }
}

extension SandboxJSON {
    /// This object with `key` appended when `condition` holds (e.g. `pending` only for pending user connections).
    func adding(_ key: String, _ value: SandboxJSON, if condition: Bool) -> SandboxJSON {
        guard condition, case .object(let members) = self else { return self }
        return .object(members + [.init(key, value)])
    }
}

extension RouteEnvironment {
    /// The body of `GET /v2/connections/{id}` for `principal`: the rendered JSON, cached per (Connection, viewer) for
    /// the store's current generation, so it is rebuilt after every write that can change it (the Connection, its
    /// services, any user connection of it, users and tokens). Access is checked on every call, hit or miss.
    func renderedConnection(_ id: String, principal: Principal, request: Request) async throws -> Data {
        let generation = store.generation
        let key = RenderedConnectionKey(connectionId: id, userId: principal.user?.id)
        if let cached = store.caches.renderedConnections.value(for: key, generation: generation) {
            try cached.connection.checkAccess(by: principal, request: request)
            return cached.body
        }
        let snapshot = try await visibleConnection(id, principal: principal, request: request)
        let body = renderer.render(snapshot, viewer: principal.user).serialized()
        store.caches.renderedConnections.store(
            RenderedConnection(connection: snapshot.connection, body: body), for: key, generation: generation)
        return body
    }
}

extension JSONResponse {
    /// A response whose body is already serialized JSON.
    static func make(serialized data: Data, status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
