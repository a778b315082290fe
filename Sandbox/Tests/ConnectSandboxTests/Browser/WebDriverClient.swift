import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// A minimal W3C WebDriver client on SwiftNIO's HTTP/1.1 codec, for driving headless Chromium through chromedriver.
///
/// One chromedriver serves the whole test run: ``ChromeDriver/shared()`` starts it on a loopback port the
/// system picks (read from its "started successfully on port N" line) and it is terminated when the process
/// exits. Each test opens its own browser session.
actor ChromeDriver {
    /// Whether chromedriver and Chromium are installed, so the browser tests can run.
    static var isAvailable: Bool {
        executable("chromedriver") != nil && browserBinary != nil
    }

    static var browserBinary: String? {
        ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    static func executable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private static let instance = ChromeDriver()
    private var starting: Task<URL, any Error>?

    /// The shared chromedriver's base URL, starting it on first use.
    static func shared() async throws -> URL { try await instance.start() }

    /// Starts chromedriver once; concurrent callers await the same start, and a failed start is tried again.
    private func start() async throws -> URL {
        if let starting { return try await starting.value }
        let task = Task {
            // chromedriver picks its port itself with --port=0 and gives up ("IPv4 port not available") when the one
            // it picked is taken, which a machine busy with other loopback servers sees now and then.
            var attempt = 1
            while true {
                do {
                    return try await Self.launch()
                } catch let failure as Failure where failure.description.contains("port not available") && attempt < 3 {
                    attempt += 1
                }
            }
        }
        starting = task
        do {
            return try await task.value
        } catch {
            starting = nil
            throw error
        }
    }

    private static func launch() async throws -> URL {
        guard let path = executable("chromedriver") else {
            throw Failure(description: "chromedriver is not installed")
        }
        let process = TestProcess()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["--port=0", "--log-level=SEVERE"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        ChromeDriverCleanup.register(process)
        // Read until the line with the port; chromedriver prints it once it listens. The reads block, so they run
        // on a thread of their own, not on the cooperative pool the in-process sandboxes serve on.
        let handle = output.fileHandleForReading
        let port = try await offCooperativePool { () throws -> Int in
            var text = ""
            while !text.contains("started successfully on port") || !text.hasSuffix("\n") {
                let chunk = handle.availableData
                guard !chunk.isEmpty else { throw Failure(description: "chromedriver exited: \(text)") }
                text += String(decoding: chunk, as: UTF8.self)
            }
            guard let range = text.range(of: "started successfully on port "),
                let port = Int(text[range.upperBound...].prefix { $0.isNumber })
            else { throw Failure(description: "chromedriver did not report its port: \(text)") }
            return port
        }
        return URL(string: "http://127.0.0.1:\(port)")!
    }
}

/// Terminates the shared chromedriver when the test process exits.
enum ChromeDriverCleanup {
    private static let processes = NIOLockedValueBox<[TestProcess]>([])

    static func register(_ process: TestProcess) {
        let first = processes.withLockedValue { processes in
            processes.append(process)
            return processes.count == 1
        }
        if first {
            atexit {
                ChromeDriverCleanup.terminateAll()
            }
        }
    }

    static func terminateAll() {
        processes.withLockedValue { processes in
            // chromedriver ignores SIGTERM; the sessions (and their browsers) are closed by then.
            for process in processes where process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
    }
}

/// One browser session of headless Chromium.
struct WebDriverSession: Sendable {
    let base: URL
    let id: String

    static let elementKey = "element-6066-11e4-a52e-4f735466cecf"

    /// Opens a headless Chromium session (`--no-sandbox`: the tests may run as root).
    static func start() async throws -> WebDriverSession {
        let base = try await ChromeDriver.shared()
        let capabilities: [String: Any] = [
            "capabilities": [
                "alwaysMatch": [
                    "browserName": "chrome",
                    "pageLoadStrategy": "normal",
                    "goog:chromeOptions": [
                        "binary": ChromeDriver.browserBinary ?? "/usr/bin/chromium",
                        "args": [
                            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                            "--no-first-run", "--disable-extensions", "--window-size=800,900",
                        ],
                    ] as [String: Any],
                ] as [String: Any]
            ]
        ]
        let value = try await call(base, "POST", "/session", capabilities)
        guard let id = (value as? [String: Any])?["sessionId"] as? String else {
            throw ChromeDriver.Failure(description: "no session id in \(String(describing: value))")
        }
        return WebDriverSession(base: base, id: id)
    }

    /// Runs `body` with a new session and always closes it.
    static func with<T: Sendable>(_ body: @Sendable (WebDriverSession) async throws -> T) async throws -> T {
        let session = try await start()
        do {
            let result = try await body(session)
            await session.quit()
            return result
        } catch {
            await session.quit()
            throw error
        }
    }

    func quit() async {
        _ = try? await Self.call(base, "DELETE", "/session/\(id)", nil)
    }

    func navigate(to url: URL) async throws {
        _ = try await Self.call(base, "POST", "/session/\(id)/url", ["url": url.absoluteString])
    }

    var currentURL: String {
        get async throws { try await Self.call(base, "GET", "/session/\(id)/url", nil) as? String ?? "" }
    }

    /// The current page's path, without the query (which may carry a user token), for failure messages.
    var pagePath: String {
        get async { ((try? await currentURL).flatMap { URL(string: $0)?.path }) ?? "?" }
    }

    /// Waits up to `timeout` seconds until the page's title starts with `prefix` (a click can return before the
    /// browser has followed a chain of redirects); returns the last title seen.
    @discardableResult
    func waitForTitle(_ prefix: String, timeout: Double = 10) async throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let current = try await title
            if current.hasPrefix(prefix) || Date() >= deadline { return current }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    var title: String {
        get async throws { try await Self.call(base, "GET", "/session/\(id)/title", nil) as? String ?? "" }
    }

    var source: String {
        get async throws { try await Self.call(base, "GET", "/session/\(id)/source", nil) as? String ?? "" }
    }

    /// The element matching a CSS selector, polling for up to `timeout` seconds while the page has none.
    func element(_ selector: String, timeout: Double = 10) async throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let value = try await Self.call(
                base, "POST", "/session/\(id)/elements", ["using": "css selector", "value": selector])
            if let element = ((value as? [any Sendable])?.first as? [String: any Sendable])?[Self.elementKey] as? String
            {
                return element
            }
            guard Date() < deadline else {
                throw ChromeDriver.Failure(
                    description: "no element \(selector) on \(await pagePath) within \(timeout) s")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Clears the input matching `selector` and types `text`.
    func fill(_ selector: String, _ text: String) async throws {
        let element = try await element(selector)
        _ = try await Self.call(base, "POST", "/session/\(id)/element/\(element)/clear", [String: Any]())
        _ = try await Self.call(base, "POST", "/session/\(id)/element/\(element)/value", ["text": text])
    }

    /// The `value` property of the input matching `selector`.
    func value(_ selector: String) async throws -> String {
        let element = try await element(selector)
        return try await Self.call(base, "GET", "/session/\(id)/element/\(element)/property/value", nil) as? String
            ?? ""
    }

    /// Clicks the element matching `selector`; a submit button waits for the next page to load.
    ///
    /// chromedriver may answer a click on a submit button before the browser has left the page, so the next
    /// command could read the old page (or find its elements gone mid-command). A submit therefore waits until
    /// the old document is gone (its root element is stale) and the new one has loaded, for up to `timeout` s.
    func click(_ selector: String, timeout: Double = 10) async throws {
        let element = try await element(selector)
        let type =
            try await Self.call(base, "GET", "/session/\(id)/element/\(element)/property/type", nil) as? String
        let page = type == "submit" ? try await rootElement() : nil
        _ = try await Self.call(base, "POST", "/session/\(id)/element/\(element)/click", [String: Any]())
        if let page { try await waitForNavigation(from: page, timeout: timeout) }
    }

    /// The current document's `<html>` element.
    private func rootElement() async throws -> String {
        let value = try await Self.call(
            base, "POST", "/session/\(id)/element", ["using": "css selector", "value": "html"])
        guard let element = (value as? [String: any Sendable])?[Self.elementKey] as? String else {
            throw ChromeDriver.Failure(description: "the page has no root element")
        }
        return element
    }

    /// Waits until `page` (a root element) is gone and the new document's `readyState` is `complete`.
    private func waitForNavigation(from page: String, timeout: Double) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        var left = false
        while Date() < deadline {
            if !left {
                do {
                    _ = try await Self.call(base, "GET", "/session/\(id)/element/\(page)/name", nil)
                } catch is ChromeDriver.Failure {
                    // "stale element reference", or "does not belong to the document" mid-navigation: it is gone.
                    left = true
                    continue
                }
            } else if let state = try? await Self.call(
                base, "POST", "/session/\(id)/execute/sync",
                ["script": "return document.readyState", "args": [Any]()]) as? String, state == "complete"
            {
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw ChromeDriver.Failure(
            description: "the page did not \(left ? "finish loading" : "change") within \(timeout) s after a submit")
    }

    /// One WebDriver command; returns the response's `value`, throws on a WebDriver error.
    ///
    /// Commands go over SwiftNIO (``send(method:url:body:)``): awaited without blocking a thread of the
    /// cooperative pool. (URLSession on Linux, libcurl through FoundationNetworking, rejects chromedriver's
    /// responses with "Failed writing header": chromedriver writes its headers without a space after the colon.)
    @discardableResult
    static func call(_ base: URL, _ method: String, _ path: String, _ body: [String: Any]?) async throws -> (
        any Sendable
    )? {
        let payload = try body.map { try JSONSerialization.data(withJSONObject: $0) }
        let (status, data) = try await send(method: method, url: base.appendingPathComponent(path), body: payload)
        let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) as? [String: Any]
        let value = object?["value"]
        if status >= 400 || object == nil {
            let error = (value as? [String: Any])?["error"] as? String ?? "HTTP \(status)"
            let message =
                (value as? [String: Any])?["message"] as? String ?? String(decoding: data.prefix(300), as: UTF8.self)
            throw ChromeDriver.Failure(description: "WebDriver \(method) \(path): \(error) \(message.prefix(300))")
        }
        return sendable(value)
    }

    /// The largest response body read (a page source); chromedriver's answers are far smaller.
    static let maximumResponseBytes = 32 << 20

    /// Sends one HTTP/1.1 request to chromedriver on a connection of its own (closed after the answer) and
    /// returns the status and the body. The connection is closed after 30 s if no complete answer came.
    private static func send(method: String, url: URL, body: Data?) async throws -> (Int, Data) {
        guard let host = url.host, let port = url.port else {
            throw ChromeDriver.Failure(description: "not a chromedriver URL: \(url)")
        }
        do {
            let (channel, exchange) = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(host: host, port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        let exchange = try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(
                            wrappingChannelSynchronously: channel)
                        return (channel, exchange)
                    }
                }
            let timeout = channel.eventLoop.scheduleTask(in: .seconds(30)) { channel.close(promise: nil) }
            defer { timeout.cancel() }
            return try await exchange.executeThenClose { inbound, outbound in
                var head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: method), uri: url.path)
                head.headers.add(name: "Host", value: "\(host):\(port)")
                head.headers.add(name: "Connection", value: "close")
                head.headers.add(name: "Content-Length", value: "\(body?.count ?? 0)")
                if body != nil { head.headers.add(name: "Content-Type", value: "application/json; charset=utf-8") }
                try await outbound.write(.head(head))
                if let body { try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: body)))) }
                try await outbound.write(.end(nil))
                var status = 0
                var data = Data()
                for try await part in inbound {
                    switch part {
                    case .head(let response): status = Int(response.status.code)
                    case .body(let bytes):
                        data.append(contentsOf: bytes.readableBytesView)
                        guard data.count <= maximumResponseBytes else {
                            throw ChromeDriver.Failure(description: "an answer over \(maximumResponseBytes) bytes")
                        }
                    case .end: return (status, data)
                    }
                }
                throw ChromeDriver.Failure(description: "the connection closed before the answer ended")
            }
        } catch let failure as ChromeDriver.Failure {
            throw ChromeDriver.Failure(description: "\(method) \(url) failed: \(failure)")
        } catch {
            throw ChromeDriver.Failure(description: "\(method) \(url) failed: \(error)")
        }
    }

    private static func sendable(_ value: Any?) -> (any Sendable)? {
        switch value {
        case let string as String: return string
        case let array as [Any]:
            return array.compactMap { sendable($0) }
        case let dictionary as [String: Any]:
            var out: [String: any Sendable] = [:]
            for (key, element) in dictionary { if let converted = sendable(element) { out[key] = converted } }
            return out
        case let number as NSNumber: return number.doubleValue
        default: return nil
        }
    }
}
