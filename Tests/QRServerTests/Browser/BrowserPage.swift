import Foundation

/// One browser tab, with the few actions the page tests need.
struct BrowserPage: Sendable {
    let browser: Chromium
    let session: String

    /// Attaches to the tab Chromium opened at start, with page, runtime, DOM and log events on.
    static func attach(to browser: Chromium) async throws -> BrowserPage {
        let targets = try await browser.send("Target.getTargets")
        let infos = targets["targetInfos"] as? [any Sendable] ?? []
        guard let page = infos.compactMap({ $0 as? [String: any Sendable] }).first(where: { $0["type"] as? String == "page" }),
              let targetID = page["targetId"] as? String else {
            throw Chromium.Failure("Chromium has no page target")
        }
        let attached = try await browser.send("Target.attachToTarget", ["targetId": targetID, "flatten": true])
        guard let session = attached["sessionId"] as? String else { throw Chromium.Failure("no session for the page") }
        let tab = BrowserPage(browser: browser, session: session)
        for domain in ["Page", "Runtime", "DOM", "Log"] { try await tab.send("\(domain).enable") }
        return tab
    }

    @discardableResult
    func send(_ method: String, _ parameters: [String: Any] = [:]) async throws -> [String: any Sendable] {
        try await browser.send(method, parameters, session: session)
    }

    /// Opens `url` and waits until the document and its module scripts have loaded.
    func open(_ url: String) async throws {
        try await send("Page.navigate", ["url": url])
        try await waitUntil("location.href === \(Self.literal(url)) && document.readyState === 'complete'",
                            "\(url) to load")
    }

    /// The value of a JavaScript expression (awaited if it is a promise), passed through JSON.
    func evaluate<T: Decodable>(_ expression: String, as type: T.Type = T.self) async throws -> T {
        let wrapped = "(async () => JSON.stringify({ value: await (\(expression)) }))()"
        let reply = try await send("Runtime.evaluate", ["expression": wrapped, "awaitPromise": true, "returnByValue": true])
        if let details = reply["exceptionDetails"] as? [String: any Sendable] {
            let exception = details["exception"] as? [String: any Sendable]
            throw Chromium.Failure("JavaScript failed: \(exception?["description"] ?? details["text"] ?? "?") in \(expression)")
        }
        guard let result = reply["result"] as? [String: any Sendable], let json = result["value"] as? String else {
            throw Chromium.Failure("no value for \(expression)")
        }
        return try JSONDecoder().decode(EvaluationResult<T>.self, from: Data(json.utf8)).value
    }

    /// Polls `condition` (a JavaScript boolean expression) until it holds; fails after `limit`, with what
    /// the page logged.
    func waitUntil(_ condition: String, _ what: String, limit: Duration = .seconds(30)) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        while clock.now < deadline {
            if (try? await evaluate("Boolean(\(condition))", as: Bool.self)) == true { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw Chromium.Failure("gave up waiting for \(what); page log: \(browser.pageLog.suffix(10))")
    }

    /// A left click at a point of the viewport, in CSS pixels.
    func click(x: Double, y: Double) async throws {
        try await send("Input.dispatchMouseEvent", ["type": "mouseMoved", "x": x, "y": y])
        for type in ["mousePressed", "mouseReleased"] {
            try await send("Input.dispatchMouseEvent", ["type": type, "x": x, "y": y, "button": "left", "clickCount": 1])
        }
    }

    /// Scrolls the element `selector` finds into view and clicks its middle.
    func click(_ selector: String) async throws {
        struct Box: Decodable { let x: Double; let y: Double }
        let box = try await evaluate("""
            (() => { const e = document.querySelector(\(Self.literal(selector))); e.scrollIntoView({ block: 'center' });
                     const r = e.getBoundingClientRect();
                     return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; })()
            """, as: Box.self)
        try await click(x: box.x, y: box.y)
    }

    /// Types text into the focused element, as an input method would.
    func insertText(_ text: String) async throws {
        try await send("Input.insertText", ["text": text])
    }

    /// Presses and releases a key (Enter, space, Tab…) on the focused element.
    func press(key: String, code: String, keyCode: Int, text: String? = nil) async throws {
        var down: [String: Any] = ["type": text == nil ? "rawKeyDown" : "keyDown", "key": key, "code": code,
                                   "windowsVirtualKeyCode": keyCode, "nativeVirtualKeyCode": keyCode]
        if let text { down["text"] = text }
        try await send("Input.dispatchKeyEvent", down)
        try await send("Input.dispatchKeyEvent", ["type": "keyUp", "key": key, "code": code,
                                                  "windowsVirtualKeyCode": keyCode, "nativeVirtualKeyCode": keyCode])
    }

    /// Puts files into the file input `selector`, as choosing them in the file dialog would.
    func setFiles(_ selector: String, _ paths: [String]) async throws {
        let document = try await send("DOM.getDocument", ["depth": 0])
        guard let root = document["root"] as? [String: any Sendable], let rootID = root["nodeId"] as? Double else {
            throw Chromium.Failure("no document node")
        }
        let node = try await send("DOM.querySelector", ["nodeId": Int(rootID), "selector": selector])
        guard let nodeID = node["nodeId"] as? Double, nodeID > 0 else { throw Chromium.Failure("no element \(selector)") }
        try await send("DOM.setFileInputFiles", ["nodeId": Int(nodeID), "files": paths])
    }

    /// A PNG of the whole page.
    func screenshot() async throws -> Data {
        struct Size: Decodable { let width: Double; let height: Double }
        let size = try await evaluate("({ width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight })",
                                      as: Size.self)
        let shot = try await send("Page.captureScreenshot", [
            "format": "png", "captureBeyondViewport": true,
            "clip": ["x": 0, "y": 0, "width": size.width, "height": size.height, "scale": 1],
        ])
        guard let base64 = shot["data"] as? String, let data = Data(base64Encoded: base64) else {
            throw Chromium.Failure("no screenshot data")
        }
        return data
    }

    /// `text` as a JavaScript string literal.
    static func literal(_ text: String) -> String {
        let data = (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

/// The `{ value: … }` wrapper `evaluate` puts around results, so that any JSON value decodes.
private struct EvaluationResult<T: Decodable>: Decodable {
    let value: T
}
