import Foundation
import Hummingbird
@_spi(Sandbox) import IFTTTConnectSDK

/// The Connect API's calls on one step of a user's Connection, authenticated with the service key and acting for
/// the partner user `user_id` (in the query or the JSON body, as in IFTTT's examples):
///
/// * `POST /v2/connections/{id}/actions/{service_id.action_id}/run`: 204 (IFTTT's "Run an Action").
/// * `POST /v2/connections/{id}/queries/{service_id.query_id}/perform`: `{"type":"list","data":[...]}`, with
///   `"next": {"fields", "cursor"}` when more items follow ("Perform a Query").
/// * `POST /v2/connections/{id}/triggers/{service_id.trigger_id}/test`: 204 ("Test Trigger Event Webhook").
///
/// The body may name a `user_feature_id` (else the first enabled user feature that uses the step) and `fields` that
/// override the stored values for this call only; a dropdown value must be one of the field options (422
/// `/fields/{field_id}` otherwise, as in the docs' example). The user must have the Connection enabled (404), and
/// not pending configuration after `skip_config=true` (403: the docs say such a connection "will not fire its
/// triggers or allow you to run it's actions or queries until it's updated"). The sandbox calls no service: each
/// run and test is recorded as a dispatch (`GET /sandbox/dispatches`); a query answers the seed's `query_results`.
struct StepRoutes: SandboxRoutes {
    let env: RouteEnvironment

    /// The `user_timezone` of the sandbox's webhooks (IFTTT's documented default).
    static let userTimezone = "Pacific Time (US & Canada)"

    func register(on router: SandboxRouter) {
        router.post("/v2/connections/:connection_id/actions/:type_id/run") { request, context in
            let call = try await StepCall(.action, request: request, context: context, env: env)
            try await env.store.recordDispatch(
                DispatchRecord(
                    kind: "action_run", connectionId: call.connection.id, stepTypeId: call.step.typeId,
                    userId: call.user.id, userFeatureId: call.userFeatureId,
                    body: ["fields": .object(call.fieldValues)]))
            env.logger.info("Ran action \(call.step.typeId) of \(call.connection.id) for user \(call.user.id)")
            return JSONResponse.empty()
        }

        router.post("/v2/connections/:connection_id/triggers/:type_id/test") { request, context in
            let call = try await StepCall(.trigger, request: request, context: context, env: env)
            let webhook: JSONValue = [
                "sent_at": .number((env.store.clock.now.timeIntervalSince1970 * 1000).rounded()),
                "type": "trigger_subscription",
                "event": "fired",
                "data": [
                    "user_id": .optional(call.partnerUserId),
                    "user_timezone": .string(Self.userTimezone),
                    "connection_id": .string(call.connection.id),
                    "trigger_id": .string(call.step.typeId),
                    "feature_id": .string(call.featureId),
                    "user_feature_id": .string(call.userFeatureId),
                    "user_feature_trigger_id": .optional(call.userStep?.id),
                ],
                "event_data": ["ingredients": [:]],
            ]
            try await env.store.recordDispatch(
                DispatchRecord(
                    kind: "trigger_test", connectionId: call.connection.id, stepTypeId: call.step.typeId,
                    userId: call.user.id, userFeatureId: call.userFeatureId, body: webhook))
            env.logger.info("Tested trigger \(call.step.typeId) of \(call.connection.id) for user \(call.user.id)")
            return JSONResponse.empty()
        }

        router.post("/v2/connections/:connection_id/queries/:type_id/perform") { request, context in
            let call = try await StepCall(.query, request: request, context: context, env: env)
            return JSONResponse.make(try Self.perform(call))
        }

        // A service key (`IFTTT-Service-Key`) lists its own service's dispatches only: those of Connections whose
        // primary service it is. Field values (an e-mail subject) are other people's business.
        router.get("/sandbox/dispatches") { request, _ in
            let serviceId = try await env.authenticator.authenticate(request, policy: .serviceOnly).service?.id ?? ""
            let records = try await env.store.dispatches(
                serviceId: serviceId, kind: request.query("kind").flatMap { $0.isEmpty ? nil : $0 },
                connectionId: request.query("connection_id").flatMap { $0.isEmpty ? nil : $0 })
            return JSONResponse.make([
                "type": "list",
                "data": .array(
                    records.map {
                        [
                            "kind": .string($0.kind), "connection_id": .string($0.connectionId),
                            "step_id": .string($0.stepTypeId), "user_id": .string($0.userId),
                            "user_feature_id": .string($0.userFeatureId), "body": $0.body,
                        ]
                    }),
            ])
        }
    }

    /// The answer of a query: the seed's results for the step, without the items one of whose members named like a
    /// query field differs from that field's value; paged by `limit` and `cursor`.
    static func perform(_ call: StepCall) throws -> JSONValue {
        let body = call.body
        if let includes = body?["includes"], !includes.isNull {
            guard let list = includes.arrayValue, list.allSatisfy({ $0.stringValue != nil }) else {
                throw APIError.unprocessable(
                    "includes must be an array of strings.",
                    details: [.init(parameter: "/includes", message: "must be an array of strings")])
            }
        }
        var limit: Int?
        if let value = body?["limit"], !value.isNull {
            guard let number = value.doubleValue, value.stringValue == nil, number.rounded() == number, number >= 1,
                number <= 1_000
            else {
                throw APIError.unprocessable(
                    "limit must be a whole number from 1 to 1000.",
                    details: [.init(parameter: "/limit", message: "must be a whole number from 1 to 1000")])
            }
            limit = Int(number)
        }
        let kind = "query:\(call.step.typeId)"
        var start = 0
        if let cursor = try RequestBody.string(body, "cursor") {
            guard let position = ListPage.decode(cursor, kind: kind) else {
                throw APIError.unprocessable(
                    "The cursor is not one this query issued.",
                    details: [.init(parameter: "/cursor", message: "is invalid")])
            }
            start = Int(clamping: position)
        }
        let filters = call.fieldValues.members.compactMap { member in member.value.stringValue.map { (member.key, $0) }
        }
        let items = (call.connection.queryResults[call.step.typeId] ?? []).filter { item in
            filters.allSatisfy { key, value in item[key]?.stringValue.map { $0 == value } ?? true }
        }
        start = min(start, items.count)
        let end = limit.map { min(start + $0, items.count) } ?? items.count
        var answer: JSONObject = ["type": "list", "data": .array(Array(items[start..<end]))]
        if end < items.count {
            answer["next"] = [
                "fields": .object(call.fieldValues), "cursor": .string(ListPage.encode(Int64(end), kind: kind)),
            ]
        }
        return .object(answer)
    }
}

/// One call on a step: who, which Connection, step and user feature, and the field values in effect.
struct StepCall: Sendable {
    let body: JSONValue?
    let user: SeedData.User
    let partnerUserId: String?
    let connection: SeedData.Connection
    let step: SeedData.Step
    let featureId: String
    let userFeatureId: String
    let userStep: SeedData.UserStep?
    /// The effective values, field id → value (a dropdown's option value as a string).
    let fieldValues: JSONObject

    init(_ kind: SeedData.StepKind, request: Request, context: SandboxRequestContext, env: RouteEnvironment)
        async throws
    {
        var request = request
        let body = try RequestBody.optionalObject(try await request.bodyData())
        let (principal, user) = try await env.serviceUser(request, body: body)
        let id = context.pathParameter("connection_id")
        let (snapshot, userConnection) = try await env.enabledConnection(
            id, principal: principal, user: user, request: request)
        let connection = snapshot.connection
        let typeId = context.pathParameter("type_id")
        let uses = connection.features.flatMap { feature in
            feature.steps(kind).filter { $0.typeId == typeId }.map { (feature: feature, step: $0) }
        }
        guard !uses.isEmpty else {
            throw APIError.notFound("Connection \"\(id)\" has no \(kind.rawValue) \"\(typeId)\".")
        }
        if userConnection.pending {
            throw APIError.forbidden(
                "The user's connection \"\(id)\" is pending: it was enabled with skip_config=true and must be configured with PUT /v2/connections/\(id)/user_connection first."
            )
        }
        let requested = try RequestBody.string(body, "user_feature_id")
        func usesStep(_ userFeature: SeedData.UserFeature) -> Bool {
            uses.contains { $0.feature.id == userFeature.featureId }
        }
        let userFeature: SeedData.UserFeature
        if let requested {
            guard let found = userConnection.userFeatures.first(where: { $0.id == requested }) else {
                throw APIError.unprocessable(
                    "user_feature_id is not one of the user's features of this connection.",
                    details: [.init(parameter: "/user_feature_id", message: "is not a user feature of this connection")]
                )
            }
            guard usesStep(found), found.enabled else {
                throw APIError.unprocessable(
                    "The user feature \(requested) does not use \(typeId), or is disabled.",
                    details: [.init(parameter: "/user_feature_id", message: "does not use this \(kind.rawValue)")])
            }
            userFeature = found
        } else {
            guard let found = userConnection.userFeatures.first(where: { $0.enabled && usesStep($0) }) else {
                throw APIError.unprocessable(
                    "No enabled feature of the user's connection uses \(typeId).",
                    details: [.init(parameter: "/user_feature_id", message: "no enabled user feature uses this step")])
            }
            userFeature = found
        }
        let step = uses.first { $0.feature.id == userFeature.featureId }!.step
        let userStep = userFeature.userSteps(kind).first { $0.featureStepId == step.id }
        let fieldValues = try Self.fieldValues(
            step: step, stored: userStep?.userFields ?? [], overrides: body?["fields"],
            options: connection.fieldOptions[step.typeId] ?? [:])

        self.body = body
        self.user = user
        self.partnerUserId = principal.partnerUserId
        self.connection = connection
        self.step = step
        self.featureId = userFeature.featureId
        self.userFeatureId = userFeature.id ?? ""
        self.userStep = userStep
        self.fieldValues = fieldValues
    }

    /// The stored values with `overrides` (the body's `fields`) applied and checked; required fields must end up
    /// with a value.
    static func fieldValues(
        step: SeedData.Step, stored: [SeedData.UserField], overrides: JSONValue?,
        options: [String: [SeedData.FieldOption]]
    ) throws -> JSONObject {
        var values: [String: JSONValue] = [:]
        for field in step.fields where !field.defaultValue.isNull { values[field.id] = field.defaultValue }
        for field in stored { values[field.fieldId] = field.value }
        var details: [APIError.Detail] = []
        if let overrides, !overrides.isNull {
            guard let object = overrides.objectValue else {
                throw APIError.unprocessable(
                    "fields must be an object of field values.",
                    details: [.init(parameter: "/fields", message: "must be an object")])
            }
            for member in object.members {
                let pointer = "/fields/\(RequestBody.pointerEscaped(member.key))"
                guard let definition = step.fields.first(where: { $0.id == member.key }) else {
                    details.append(.init(parameter: pointer, message: "Unknown field for this step."))
                    continue
                }
                switch UserConnectionConfigurator.normalize(
                    member.value, definition: definition, options: options[definition.id] ?? [])
                {
                case .success(let value): values[definition.id] = value
                case .failure(let problem):
                    let isDropdown = definition.type.uppercased().hasSuffix("COLLECTION_SELECT")
                    details.append(
                        .init(
                            parameter: pointer,
                            message: isDropdown
                                ? "Not a valid option for this field. Use the field options request to get valid options."
                                : problem.message))
                }
            }
        }
        for field in step.fields where field.required && (values[field.id]?.isNull ?? true) {
            details.append(.init(parameter: "/fields/\(RequestBody.pointerEscaped(field.id))", message: "is required"))
        }
        guard details.isEmpty else {
            throw APIError.unprocessable("The parameters of your request were invalid.", details: details)
        }
        return JSONObject(
            step.fields.compactMap { field in
                values[field.id].map { value in
                    (field.id, value["value"].flatMap { $0.stringValue.map(JSONValue.string) } ?? value)
                }
            })
    }
}

extension Principal {
    /// The partner user id a service-key request acts for.
    var partnerUserId: String? {
        if case .service(_, let partnerUserId, _) = self { return partnerUserId }
        return nil
    }
}

extension RequestBody {
    /// `key` escaped as one JSON pointer token (RFC 6901: `~` → `~0`, `/` → `~1`).
    static func pointerEscaped(_ key: String) -> String {
        key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}
