import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Building requests from ``APIRequest``s, sending them through the transport, mapping statuses to typed
/// errors and decoding answers.
extension ConnectionNetworkController {
    /// Sends an API request and maps non-accepted statuses to typed errors.
    func send(_ request: APIRequest, acceptedStatuses: Set<Int> = []) async throws(ConnectAPIError) -> HTTPResponse {
        let httpRequest = try httpRequest(for: request)
        return try await send(
            httpRequest, loggablePath: request.loggablePath, method: request.method,
            acceptedStatuses: acceptedStatuses, secrets: request.secrets)
    }

    func send(
        _ httpRequest: HTTPRequest, loggablePath: String, method: String, acceptedStatuses: Set<Int> = [],
        secrets: [String]? = nil
    ) async throws(ConnectAPIError) -> HTTPResponse {
        let result: Result<HTTPResponse, ConnectAPIError>
        do throws(ConnectAPIError) {
            result = .success(try await configuration.transport.send(httpRequest))
        } catch {
            result = .failure(error)
        }
        return try checked(
            result, of: httpRequest, loggablePath: loggablePath, method: method, acceptedStatuses: acceptedStatuses,
            secrets: secrets)
    }

    /// Logs the outcome of a request and turns a 401 or another non-2xx status into its typed error (unless
    /// `acceptedStatuses` lists it).
    func checked(
        _ result: Result<HTTPResponse, ConnectAPIError>, of httpRequest: HTTPRequest, loggablePath: String,
        method: String, acceptedStatuses: Set<Int> = [], secrets: [String]? = nil
    ) throws(ConnectAPIError) -> HTTPResponse {
        let secrets = secrets ?? Self.secrets(of: httpRequest)
        let response: HTTPResponse
        switch result {
        case .success(let answer):
            response = answer
        case .failure(let error):
            configuration.logHandler?("\(method) \(loggablePath) failed: \(error)")
            throw error
        }
        configuration.logHandler?("\(method) \(loggablePath) -> \(response.statusCode)")
        if let error = statusError(for: response, acceptedStatuses: acceptedStatuses, secrets: secrets) { throw error }
        return response
    }

    /// The SDK's one mapping from an answer's status to its typed error: `nil` for an accepted status (any 2xx
    /// when `acceptedStatuses` is empty), 401 ``ConnectAPIError/authenticationFailure(_:)``, anything else
    /// ``ConnectAPIError/apiError(statusCode:payload:)``, each with IFTTT's error envelope (read by
    /// `APIErrorPayload(data:)`) and the request's `secrets` redacted from it.
    func statusError(for response: HTTPResponse, acceptedStatuses: Set<Int> = [], secrets: [String])
        -> ConnectAPIError?
    {
        if acceptedStatuses.contains(response.statusCode) { return nil }
        switch response.statusCode {
        case 200..<300 where acceptedStatuses.isEmpty:
            return nil
        case 401:
            return .authenticationFailure(redacted(APIErrorPayload(data: response.body), secrets))
        default:
            return .apiError(
                statusCode: response.statusCode, payload: redacted(APIErrorPayload(data: response.body), secrets))
        }
    }

    func httpRequest(for request: APIRequest) throws(ConnectAPIError) -> HTTPRequest {
        try Self.httpRequest(
            for: request, baseURL: configuration.connectBaseURL, anonymousId: configuration.anonymousId,
            timeout: configuration.timeout)
    }

    static func httpRequest(for request: APIRequest, baseURL: URL, anonymousId: String, timeout: Int)
        throws(ConnectAPIError) -> HTTPRequest
    {
        var headers: [String: String] = ["Accept": "application/json"]
        if request.sdkHeaders {
            headers["IFTTT-SDK-Version"] = SDKInfo.version
            headers["IFTTT-SDK-Platform"] = SDKInfo.platform
            headers["IFTTT-SDK-Anonymous-Id"] = anonymousId
        }
        if let token = request.userToken { headers["Authorization"] = "Bearer \(token)" }
        if let invite = request.inviteCode { headers["IFTTT-Invite-Code"] = invite }
        if let key = request.serviceKey { headers["IFTTT-Service-Key"] = key }
        if request.body != nil { headers["Content-Type"] = "application/json" }
        return HTTPRequest(
            method: request.method, url: try request.url(relativeTo: baseURL),
            headers: headers, body: request.body, timeout: timeout)
    }

    func decodeConnection(_ response: HTTPResponse) throws(ConnectAPIError) -> Connection {
        do throws(ConnectDecodingError) {
            return try Connection.decode(from: response.body)
        } catch {
            throw .invalidResponse(statusCode: response.statusCode, error)
        }
    }
}

extension ConnectionNetworkController {
    /// Sends a service-key request for the server-side toolkit and returns the body of a 2xx response.
    /// The key goes only into the `IFTTT-Service-Key` header; errors and logs never contain it.
    package func sendServiceRequest(
        method: String, path: [String], query: [(String, String)] = [],
        serviceKey: String, body: Data? = nil
    ) async throws(ConnectAPIError) -> Data {
        var request = APIRequest(method: method, path: path, query: query, body: body)
        request.serviceKey = serviceKey
        return try await send(request).body
    }
}
