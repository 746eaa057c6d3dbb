import Foundation

/// Python's plistlib, the reader and writer the tests check files with (no code of this
/// project's), kept running: one `plist_canon.py serve` per test process answers every
/// request. Started once per question it was most of many tests' time: a python3 with
/// plistlib costs 40 to 100 ms of CPU and, behind a version manager's shim, most of a
/// second.
final class Plistlib: @unchecked Sendable {
    static let shared = Plistlib()

    private let lock = NSLock()
    private var process: Process?
    private var input: FileHandle?
    private var output: FileHandle?
    private var pending = Data()

    /// The answer to one request (`plist_canon.py`'s `serve` names them: `canon`, `json`,
    /// `load`, `format`, `dump`): whether it succeeded, and its text (plistlib's error
    /// when not).
    func ask(_ request: [String]) -> (ok: Bool, text: String) {
        lock.lock()
        defer { lock.unlock() }
        if process == nil, let failure = start() { return (false, failure) }
        guard let line = try? JSONSerialization.data(withJSONObject: request), let input, let output else {
            return (false, "the request cannot be sent")
        }
        do { try input.write(contentsOf: line + Data("\n".utf8)) } catch {
            stop()
            return (false, "plistlib's python ended: \(error)")
        }
        // Only new bytes are searched for the line's end: an answer can be megabytes, read
        // in pipe-sized pieces.
        var searched = pending.startIndex
        while true {
            if let newline = pending[searched...].firstIndex(of: UInt8(ascii: "\n")) {
                let answer = pending[pending.startIndex..<newline]
                pending = Data(pending[(newline + 1)...])
                guard let object = try? JSONSerialization.jsonObject(with: answer) as? [String: Any],
                    let ok = object["ok"] as? Bool, let text = object["out"] as? String
                else { return (false, "an answer that is not JSON: \(String(decoding: answer, as: UTF8.self))") }
                return (ok, text)
            }
            searched = pending.endIndex
            let more = output.availableData
            if more.isEmpty {
                stop()
                return (false, "plistlib's python ended")
            }
            pending += more
        }
    }

    private func start() -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Harness.canonScript, "serve"]
        let toPython = Pipe(), fromPython = Pipe()
        process.standardInput = toPython
        process.standardOutput = fromPython
        process.standardError = FileHandle.standardError
        do { try process.run() } catch { return "python3 cannot run: \(error)" }
        (self.process, input, output, pending) = (
            process, toPython.fileHandleForWriting, fromPython.fileHandleForReading, Data()
        )
        return nil
    }

    private func stop() {
        try? input?.close()
        process?.waitUntilExit()
        (process, input, output, pending) = (nil, nil, nil, Data())
    }
}
