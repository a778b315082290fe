// 2.8's networking and option shapes a 2.8 app may use: a `URLSessionDataTask` kept to cancel a fetch,
// `ConnectionResponseClosure`, `JSONNetworkController`, the lifecycle options' description and an assigned
// `InitializerOptions.standard`. `import IFTTTConnectSDK` alone, as in 2.8 (FoundationNetworking only on Linux).
import Foundation
import IFTTTConnectSDK
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

final class ConnectionLoader {
    let networkController = ConnectionNetworkController()
    private var task: URLSessionDataTask?
    private(set) var name: String?

    func load(_ id: String, credentials: ConnectionCredentialProvider) {
        task?.cancel()
        let completion: ConnectionNetworkController.ConnectionResponseClosure = { response in
            if case .success(let connection) = response.result { print(connection.name, response.statusCode) }
        }
        task = networkController.start(
            request: .fetchConnection(for: id, credentialProvider: credentials), completion: completion)
    }

    func loadRaw(_ urlRequest: URLRequest) {
        task = networkController.start(urlRequest: urlRequest) { response in
            switch response.result {
            case .success(let connection): print(connection.id)
            case .failure(let error): print(error)
            }
        }
    }

    func cancel() {
        task?.cancel()
        task = nil
    }
}

func checkMe(token: String) {
    var request = URLRequest(url: URL(string: "https://connect.ifttt.com/v2/me")!)
    request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
    let handler: JSONNetworkController.CompletionClosure = { result in
        switch result {
        case .success(let response):
            let typed: JSONNetworkController.Response = response
            print(typed.statusCode, typed.headers.count, typed.body.count)
        case .failure(let error):
            print(error)
        }
    }
    let task: URLSessionDataTask? = ConnectionNetworkController().json(urlRequest: request, completionHandler: handler)
    task?.resume()
    JSONNetworkController().json(urlRequest: request, completionHandler: nil)
}

func describeOptions() -> String {
    InitializerOptions.standard = InitializerOptions(enableSDKBackgroundProcess: true)
    let options: ApplicationLifecycleSynchronizationOptions = .all
    return "Synchronizing on \(options.description)"
}
