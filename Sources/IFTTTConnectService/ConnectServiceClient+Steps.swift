import Foundation
@_spi(Sandbox) import IFTTTConnectCore

extension ConnectServiceClient {
    /// What ``performQuery(connectionId:queryId:userId:userFeatureId:fields:includes:limit:cursor:)`` answers
    /// (IFTTT's "Perform a Query").
    public struct QueryResult: Sendable, Hashable {
        /// `list` for a result set, `query` for an ingredient that is itself a query.
        public var type: String
        /// The items of the result set, as IFTTT sends them (their members depend on the query).
        public var items: [JSONValue]
        /// The cursor of the next page (`next.cursor`), or `nil` on the last page.
        public var nextCursor: String?
        /// The query fields to send with ``nextCursor`` for the next page (`next.fields`).
        public var nextFields: JSONObject?

        /// Creates a result.
        @_spi(Sandbox) public init(
            type: String, items: [JSONValue], nextCursor: String? = nil, nextFields: JSONObject? = nil
        ) {
            self.type = type
            self.items = items
            self.nextCursor = nextCursor
            self.nextFields = nextFields
        }
    }

    /// Runs an action with one of your users' stored fields, or with `fields` overriding some of them for this run
    /// (IFTTT's "Run an Action": `POST /v2/connections/{id}/actions/{action_id}/run`, answered with 204).
    ///
    /// ```swift
    /// try await client.runAction(
    ///     connectionId: "gx-weekly-deals", actionId: "email.send_me_email", userId: "gx-user-1001",
    ///     fields: ["subject": "Deals at your store"])
    /// ```
    ///
    /// - Parameters:
    ///   - connectionId: the Connection id.
    ///   - actionId: the action's qualified id, `service_id.action_id` (a step's `Connection.Step.qualifiedTypeId`).
    ///   - userId: the user's id on your service; the user must have the Connection enabled.
    ///   - userFeatureId: the user feature whose configuration to use; `nil`: the first that uses the action.
    ///   - fields: field values that override the stored ones for this run; a dropdown's value must be one of its
    ///     field options (``fetchFieldOptions(connectionId:for:userId:)``).
    /// - Throws: ``Error``; a 404 when the user does not have the Connection enabled, a 422 with the offending
    ///   field as `/fields/{field_id}` in the error's details.
    public func runAction(
        connectionId: String, actionId: String, userId: String, userFeatureId: String? = nil,
        fields: JSONObject = [:]
    ) async throws(Error) {
        _ = try await sendStep(
            ["connections", connectionId, "actions", actionId, "run"],
            body: try Self.stepBody(userId: userId, userFeatureId: userFeatureId, fields: fields))
    }

    /// Performs a query with one of your users' stored fields, or with `fields` overriding some of them
    /// (IFTTT's "Perform a Query": `POST /v2/connections/{id}/queries/{query_id}/perform`).
    ///
    /// ```swift
    /// var page = try await client.performQuery(
    ///     connectionId: "gx-weekly-deals", queryId: "grocery_express.list_deals", userId: "gx-user-1001", limit: 10)
    /// while let cursor = page.nextCursor {
    ///     page = try await client.performQuery(
    ///         connectionId: "gx-weekly-deals", queryId: "grocery_express.list_deals", userId: "gx-user-1001",
    ///         fields: page.nextFields ?? [:], limit: 10, cursor: cursor)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - connectionId: the Connection id.
    ///   - queryId: the query's qualified id, `service_id.query_id`.
    ///   - userId: the user's id on your service; the user must have the Connection enabled.
    ///   - userFeatureId: the user feature whose configuration to use; `nil`: the first that uses the query.
    ///   - fields: field values that override the stored ones (for the next page, ``QueryResult/nextFields``).
    ///   - includes: query ingredients to resolve into drill-down results in the same answer.
    ///   - limit: the most items to answer; `nil`: the API's choice.
    ///   - cursor: a ``QueryResult/nextCursor`` of an earlier page.
    /// - Returns: the items and, when more follow, the cursor and fields of the next page.
    public func performQuery(
        connectionId: String, queryId: String, userId: String, userFeatureId: String? = nil,
        fields: JSONObject = [:], includes: [String] = [], limit: Int? = nil, cursor: String? = nil
    ) async throws(Error) -> QueryResult {
        var body = try Self.stepBody(userId: userId, userFeatureId: userFeatureId, fields: fields)
        if !includes.isEmpty { body["includes"] = .array(includes.map(JSONValue.string)) }
        if let limit {
            guard limit > 0 else { throw .network(.invalidRequest("limit must be positive")) }
            body["limit"] = .number(Double(limit))
        }
        if let cursor { body["cursor"] = .string(cursor) }
        let data = try await sendStep(["connections", connectionId, "queries", queryId, "perform"], body: body)
        do throws(ConnectDecodingError) {
            let json = try JSONParser().parse(data)
            guard let type = json["type"]?.stringValue else {
                throw ConnectDecodingError(path: "$", reason: .missingKey("type"))
            }
            let next = json["next"]?.objectValue
            return QueryResult(
                type: type, items: json["data"]?.arrayValue ?? [], nextCursor: next?["cursor"]?.stringValue,
                nextFields: next?["fields"]?.objectValue)
        } catch {
            throw .unexpectedResponse(error)
        }
    }

    /// Asks IFTTT to send your webhook endpoint a test event of a trigger for one of your users
    /// (IFTTT's "Test Trigger Event Webhook": `POST /v2/connections/{id}/triggers/{trigger_id}/test`, 204).
    ///
    /// - Parameters:
    ///   - connectionId: the Connection id.
    ///   - triggerId: the trigger's qualified id, `service_id.trigger_id`.
    ///   - userId: the user's id on your service; the user must have the Connection enabled.
    ///   - userFeatureId: the user feature whose configuration to use; `nil`: the first that uses the trigger.
    public func testTrigger(connectionId: String, triggerId: String, userId: String, userFeatureId: String? = nil)
        async throws(Error)
    {
        _ = try await sendStep(
            ["connections", connectionId, "triggers", triggerId, "test"],
            body: try Self.stepBody(userId: userId, userFeatureId: userFeatureId, fields: [:]))
    }

    /// Trades the OAuth code you issued for one of your users for a provisional access code, which you put as
    /// `code` into a Connect URL (`https://ifttt.com/connect/{id}?email=…&code=…`) so IFTTT can skip your
    /// sign-in page (`POST /v2/provisional_access_code`, answered with 201). The code is single-use and expires
    /// after 48 hours.
    ///
    /// ```swift
    /// let code = try await client.createProvisionalAccessCode(oauthCode: oauthCodeForThisUser)
    /// ```
    public func createProvisionalAccessCode(oauthCode: String) async throws(Error) -> String {
        guard !oauthCode.isEmpty else { throw .network(.invalidRequest("empty OAuth code")) }
        let body: JSONObject = ["oauth_code": .string(oauthCode)]
        let data = try await sendStep(["provisional_access_code"], body: body)
        return try Self.nonEmptyString("provisional_access_code", in: data)
    }

    // MARK: Internals

    /// `{"user_id", "user_feature_id"?, "fields"?}`: IFTTT's examples carry the user in the body of these calls.
    private static func stepBody(userId: String, userFeatureId: String?, fields: JSONObject) throws(Error)
        -> JSONObject
    {
        guard !userId.isEmpty else { throw .network(.invalidRequest("empty user id")) }
        var body: JSONObject = ["user_id": .string(userId)]
        if let userFeatureId { body["user_feature_id"] = .string(userFeatureId) }
        if fields.count > 0 { body["fields"] = .object(fields) }
        return body
    }

    private func sendStep(_ path: [String], body: JSONObject) async throws(Error) -> Data {
        do throws(ConnectAPIError) {
            return try await controller.sendServiceRequest(
                method: "POST", path: path, serviceKey: serviceKey,
                body: Data(JSONValue.object(body).serialized().utf8))
        } catch {
            throw .network(error)
        }
    }
}
