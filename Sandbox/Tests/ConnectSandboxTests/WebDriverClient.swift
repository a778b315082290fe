import Foundation

/// A minimal W3C WebDriver client over the curl command line, for driving headless Chromium through chromedriver.
///
/// One chromedriver serves the whole test run: ``ChromeDriver/shared()`` starts it on a loopback port the
/// system picks (read from its "started successfully on port N" line) and it is terminated when the process
/// exits. Each test opens its own browser session.
actor ChromeDriver {
    /// Whether chromedriver and Chromium are installed, so the browser tests can run.
    static var isAvailable: Bool {
        executable("chromedriver") != nil && browserBinary != nil
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")
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
    private var started: URL?
    private var process: Process?

    /// The shared chromedriver's base URL, starting it on first use.
    static func shared() async throws -> URL { try await instance.start() }

    private func start() throws -> URL {
        if let started { return started }
        guard let path = Self.executable("chromedriver") else {
            throw Failure(description: "chromedriver is not installed")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["--port=0", "--log-level=SEVERE"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        ChromeDriverCleanup.register(process)
        // Read until the line with the port; chromedriver prints it once it listens.
        var text = ""
        let handle = output.fileHandleForReading
        while !text.contains("started successfully on port") || !text.hasSuffix("\n") {
            let chunk = handle.availableData
            guard !chunk.isEmpty else { throw Failure(description: "chromedriver exited: \(text)") }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let range = text.range(of: "started successfully on port "),
            let port = Int(text[range.upperBound...].prefix { $0.isNumber })
        else { throw Failure(description: "chromedriver did not report its port: \(text)") }
        let url = URL(string: "http://127.0.0.1:\(port)")!
        self.process = process
        started = url
        return url
    }
}

/// Terminates the shared chromedriver when the test process exits.
enum ChromeDriverCleanup {
    private static let processes = ProcessBox()

    final class ProcessBox: @unchecked Sendable {
        let lock = NSLock()
        var processes: [Process] = []
    }

    static func register(_ process: Process) {
        processes.lock.lock()
        let first = processes.processes.isEmpty
        processes.processes.append(process)
        processes.lock.unlock()
        if first {
            atexit {
                ChromeDriverCleanup.terminateAll()
            }
        }
    }

    static func terminateAll() {
        processes.lock.lock()
        defer { processes.lock.unlock() }
        // chromedriver ignores SIGTERM; the sessions (and their browsers) are closed by then.
        for process in processes.processes where process.isRunning { kill(process.processIdentifier, SIGKILL) }
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

    /// Clicks the element matching `selector` (a submit button waits for the next page to load).
    func click(_ selector: String) async throws {
        let element = try await element(selector)
        _ = try await Self.call(base, "POST", "/session/\(id)/element/\(element)/click", [String: Any]())
    }

    /// One WebDriver command; returns the response's `value`, throws on a WebDriver error.
    ///
    /// Each command runs `/usr/bin/curl`: on Linux, URLSession (libcurl through FoundationNetworking) rejects
    /// chromedriver's responses with "Failed writing header", while the curl command line reads them fine.
    @discardableResult
    static func call(_ base: URL, _ method: String, _ path: String, _ body: [String: Any]?) async throws -> (
        any Sendable
    )? {
        let payload = try body.map { try JSONSerialization.data(withJSONObject: $0) }
        let (status, data) = try await curl(method: method, url: base.absoluteString + path, body: payload)
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

    /// Runs one HTTP request with the curl command line on a background queue; returns the status and the body.
    private static func curl(method: String, url: String, body: Data?) async throws -> (Int, Data) {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Int, Data), any Error>) in
            DispatchQueue.global().async {
                do {
                    let process = Process()
                    process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
                    var arguments = ["-s", "-S", "--max-time", "30", "-X", method, "-w", "\n%{http_code}"]
                    if body != nil {
                        arguments += ["-H", "Content-Type: application/json; charset=utf-8", "--data-binary", "@-"]
                    }
                    process.arguments = arguments + [url]
                    let input = Pipe()
                    let output = Pipe()
                    let errors = Pipe()
                    process.standardInput = input
                    process.standardOutput = output
                    process.standardError = errors
                    try process.run()
                    // Bodies are small: write all of it, then read the output to its end.
                    if let body { input.fileHandleForWriting.write(body) }
                    try input.fileHandleForWriting.close()
                    let data = output.fileHandleForReading.readDataToEndOfFile()
                    let message = errors.fileHandleForReading.readDataToEndOfFile()
                    process.waitUntilExit()
                    guard process.terminationStatus == 0,
                        let newline = data.lastIndex(of: UInt8(ascii: "\n")),
                        let status = Int(String(decoding: data[(newline + 1)...], as: UTF8.self))
                    else {
                        throw ChromeDriver.Failure(
                            description: "curl \(method) \(url) exited \(process.terminationStatus): "
                                + String(decoding: message.prefix(300), as: UTF8.self))
                    }
                    continuation.resume(returning: (status, Data(data[..<newline])))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
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
