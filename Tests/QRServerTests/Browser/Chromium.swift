import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Headless Chromium driven over the Chrome DevTools Protocol.
///
/// The protocol runs over `--remote-debugging-pipe` (messages are JSON texts ended by NUL, Chromium reads
/// file descriptor 3 and writes 4) rather than a WebSocket: no port to discover, no WebSocket client to
/// depend on (Foundation's on Linux lacks WebSocket support), and the pipe closes when Chromium dies.
/// The browser runs in its own process group so that `close()` ends it and every helper process it started.
final class Chromium: Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// The Chromium executable: `$CHROMIUM`, else the first of the usual names on the PATH.
    static var executable: String? {
        if let path = ProcessInfo.processInfo.environment["CHROMIUM"], FileManager.default.isExecutableFile(atPath: path) {
            return path
        }
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for directory in directories where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
                return "\(directory)/\(name)"
            }
        }
        return nil
    }

    private struct State {
        var nextID = 0
        var pending: [Int: CheckedContinuation<[String: any Sendable], any Error>] = [:]
        var closed = false
        /// Console messages and uncaught exceptions of the pages, for failure reports.
        var log: [String] = []
    }

    private let state = Mutex(State())
    private let writeLock = Mutex(())
    private let pid: pid_t
    private let toBrowser: Int32
    private let fromBrowser: Int32
    let profile: URL
    let logFile: URL

    /// Starts Chromium with a fresh profile in `directory`; `fakeVideo` feeds its fake camera from a Y4M file.
    init(executable: String, directory: URL, fakeVideo: URL?, windowSize: (Int, Int) = (1200, 900)) throws {
        profile = directory.appendingPathComponent("profile")
        logFile = directory.appendingPathComponent("chromium.log")
        guard FileManager.default.createFile(atPath: logFile.path, contents: nil) else {
            throw Failure("cannot create \(logFile.path)")
        }
        var arguments = [
            executable, "--headless=new", "--no-sandbox", "--remote-debugging-pipe", "--user-data-dir=\(profile.path)",
            "--no-first-run", "--no-default-browser-check", "--disable-gpu", "--disable-dev-shm-usage",
            "--disable-extensions", "--disable-background-networking", "--disable-component-update", "--mute-audio",
            "--hide-scrollbars", "--window-size=\(windowSize.0),\(windowSize.1)", "--force-device-scale-factor=1",
            "--font-render-hinting=none",
        ]
        if let fakeVideo {
            arguments += ["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
                          "--use-file-for-fake-video-capture=\(fakeVideo.path)"]
        }
        arguments.append("about:blank")

        var commands: [Int32] = [0, 0]
        var events: [Int32] = [0, 0]
        guard pipe(&commands) == 0, pipe(&events) == 0 else { throw Failure("cannot create pipes") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logFile.path, O_WRONLY | O_APPEND, 0)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Chromium reads commands from fd 3 and writes replies to fd 4.
        posix_spawn_file_actions_adddup2(&actions, commands[0], 3)
        posix_spawn_file_actions_adddup2(&actions, events[1], 4)
        for fd in [commands[0], commands[1], events[0], events[1]] where fd > 4 {
            posix_spawn_file_actions_addclose(&actions, fd)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)

        var child: pid_t = 0
        let cArguments = arguments.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        let status = posix_spawn(&child, executable, &actions, &attributes, cArguments, environ)
        Glibc.close(commands[0])
        Glibc.close(events[1])
        guard status == 0 else {
            Glibc.close(commands[1])
            Glibc.close(events[0])
            throw Failure("cannot start \(executable): \(String(cString: strerror(status)))")
        }
        pid = child
        toBrowser = commands[1]
        fromBrowser = events[0]
        let reader = Thread { [self] in readMessages() }
        reader.name = "chromium-cdp-reader"
        reader.start()
    }

    /// Sends a command to the browser (no session) or to an attached target, and returns its result.
    @discardableResult
    func send(_ method: String, _ parameters: [String: Any] = [:], session: String? = nil,
              timeout: Duration = .seconds(30)) async throws -> [String: any Sendable] {
        var message: [String: Any] = ["method": method, "params": parameters]
        if let session { message["sessionId"] = session }
        let id: Int = try state.withLock { state in
            guard !state.closed else { throw Failure("Chromium has exited; see \(logFile.path)") }
            state.nextID += 1
            return state.nextID
        }
        message["id"] = id
        var data = try JSONSerialization.data(withJSONObject: message)
        data.append(0)
        return try await withCheckedThrowingContinuation { continuation in
            let refused: Bool = state.withLock { state in
                guard !state.closed else { return true }
                state.pending[id] = continuation
                return false
            }
            if refused {
                continuation.resume(throwing: Failure("Chromium has exited; see \(logFile.path)"))
                return
            }
            write(data)
            Task { [self] in
                try? await Task.sleep(for: timeout)
                let late = state.withLock { $0.pending.removeValue(forKey: id) }
                late?.resume(throwing: Failure("\(method) got no answer within \(timeout)"))
            }
        }
    }

    /// What the pages printed to the console, threw, or the browser logged about them (CSP violations).
    var pageLog: [String] { state.withLock { $0.log } }

    /// Asks the browser to quit, so that it ends and reaps its helper processes itself; ends them all by
    /// force if it has not exited after a few seconds.
    func shutdown() async {
        _ = try? await send("Browser.close", timeout: .seconds(5))
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(5)
        var status: Int32 = 0
        while clock.now < deadline {
            if waitpid(pid, &status, WNOHANG) == pid {
                state.withLock { $0.closed = true }
                Glibc.close(toBrowser)
                failPending()
                return
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
        close()
    }

    /// Ends the browser and every process it started at once, and waits for it.
    func close() {
        let alreadyClosed = state.withLock { state -> Bool in
            let was = state.closed
            state.closed = true
            return was
        }
        guard !alreadyClosed else { return }
        kill(-pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        Glibc.close(toBrowser)
        failPending()
    }

    deinit { close() }

    private func write(_ data: Data) {
        writeLock.withLock { _ in
            data.withUnsafeBytes { buffer in
                guard var base = buffer.baseAddress else { return }
                var left = buffer.count
                while left > 0 {
                    let written = Glibc.write(toBrowser, base, left)
                    if written < 0 && errno == EINTR { continue }
                    guard written > 0 else { return }
                    base += written
                    left -= written
                }
            }
        }
    }

    /// Splits the replies at NUL bytes and hands each to its waiting command.
    private func readMessages() {
        var buffer = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fromBrowser, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            buffer += chunk[0..<count]
            while let end = buffer.firstIndex(of: 0) {
                dispatch(Data(buffer[..<end]))
                buffer.removeSubrange(...end)
            }
        }
        Glibc.close(fromBrowser)
        state.withLock { $0.closed = true }
        failPending()
    }

    private func dispatch(_ data: Data) {
        guard let message = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return }
        guard let id = message["id"] as? Int else {
            record(event: message)
            return
        }
        let waiter = state.withLock { $0.pending.removeValue(forKey: id) }
        if let error = message["error"] as? [String: Any] {
            waiter?.resume(throwing: Failure("DevTools error: \(error["message"] ?? error)"))
        } else {
            waiter?.resume(returning: Self.sendable(message["result"] as? [String: Any] ?? [:]))
        }
    }

    private func record(event: [String: Any]) {
        let parameters = event["params"] as? [String: Any] ?? [:]
        switch event["method"] as? String {
        case "Runtime.consoleAPICalled":
            let arguments = (parameters["args"] as? [[String: Any]] ?? []).map { "\($0["value"] ?? $0["description"] ?? "?")" }
            state.withLock { $0.log.append("console.\(parameters["type"] ?? "log"): \(arguments.joined(separator: " "))") }
        case "Log.entryAdded":
            let entry = parameters["entry"] as? [String: Any] ?? [:]
            state.withLock { $0.log.append("log.\(entry["level"] ?? "info"): \(entry["text"] ?? "?")") }
        case "Runtime.exceptionThrown":
            let details = parameters["exceptionDetails"] as? [String: Any] ?? [:]
            let exception = details["exception"] as? [String: Any] ?? [:]
            state.withLock { $0.log.append("exception: \(exception["description"] ?? details["text"] ?? "?")") }
        default:
            break
        }
    }

    private func failPending() {
        let waiters = state.withLock { state -> [CheckedContinuation<[String: any Sendable], any Error>] in
            defer { state.pending.removeAll() }
            return Array(state.pending.values)
        }
        for waiter in waiters { waiter.resume(throwing: Failure("Chromium has exited; see \(logFile.path)")) }
    }

    /// JSON values as `Sendable` ones (the parser only makes strings, numbers, booleans, nulls, arrays, objects).
    private static func sendable(_ value: [String: Any]) -> [String: any Sendable] {
        value.mapValues(sendableValue)
    }

    private static func sendableValue(_ value: Any) -> any Sendable {
        switch value {
        case let object as [String: Any]: return sendable(object)
        case let array as [Any]: return array.map(sendableValue)
        case let string as String: return string
        case let number as NSNumber: return number.doubleValue
        default: return String(describing: value)
        }
    }
}
