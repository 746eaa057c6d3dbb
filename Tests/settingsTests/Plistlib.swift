import Foundation

/// Python's plistlib, the reader and writer the sync and git tests check files with (no
/// code of this project's), kept running: one python3 per test process answers every
/// request. Started once per question it was most of those tests' time: a python3 with
/// plistlib costs 40 ms of CPU and, behind a version manager's shim, most of a second.
final class Plistlib: @unchecked Sendable {
    static let shared = Plistlib()

    private let lock = NSLock()
    private var process: Process?
    private var input: FileHandle?
    private var output: FileHandle?
    private var pending = Data()

    /// Each request a line of JSON, `[OP, ARGUMENTS…]`; each answer a line of JSON,
    /// `{"ok": BOOL, "out": TEXT}`. `load`: the file's values as sorted JSON (what
    /// `json.dumps(plistlib.load(…), sort_keys=True, default=str)` prints); `format`:
    /// `xml` or `binary`; `dump PATH JSON FORMAT`: the JSON's values written there.
    private static let script = """
        import json, plistlib, sys, traceback
        def load(path):
            with open(path, 'rb') as f:
                return json.dumps(plistlib.load(f), sort_keys=True, default=str)
        def format(path):
            with open(path, 'rb') as f:
                return 'binary' if f.read().startswith(b'bplist00') else 'xml'
        def dump(path, text, fmt):
            with open(path, 'wb') as f:
                plistlib.dump(json.loads(text), f, fmt=plistlib.FMT_BINARY if fmt == 'binary' else plistlib.FMT_XML)
            return ''
        ops = {'load': load, 'format': format, 'dump': dump}
        for line in sys.stdin:
            request = json.loads(line)
            try:
                answer = {'ok': True, 'out': ops[request[0]](*request[1:])}
            except Exception:
                answer = {'ok': False, 'out': traceback.format_exc()}
            sys.stdout.write(json.dumps(answer) + '\\n')
            sys.stdout.flush()
        """

    /// The answer to one request: whether it succeeded, and its text (the traceback when not).
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
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let answer = pending[pending.startIndex..<newline]
                pending = Data(pending[(newline + 1)...])
                guard let object = try? JSONSerialization.jsonObject(with: answer) as? [String: Any],
                    let ok = object["ok"] as? Bool, let text = object["out"] as? String
                else { return (false, "an answer that is not JSON: \(String(decoding: answer, as: UTF8.self))") }
                return (ok, text)
            }
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
        process.arguments = ["python3", "-c", Self.script]
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
