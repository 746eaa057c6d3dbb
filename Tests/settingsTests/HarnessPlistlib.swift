import Foundation

/// One plistlib process (`plist_canon.py serve`) for a test process, asked a file a line:
/// Python's start, about 0.1 s of CPU (more than most commands a test runs), is paid once
/// per test process rather than once per file read back. Nil from `ask` when it cannot be
/// had; the caller then runs Python once, as before.
final class PlistlibServer: @unchecked Sendable {
    static let shared = PlistlibServer()

    private let lock = NSLock()
    private var process: Process?
    private var input: FileHandle?
    private var output: FileHandle?
    private var pending = Data()

    /// plistlib's line for `path`: `canon` its canonical form, `json` JSON with sorted
    /// keys; `failed` when plistlib refused the file, with what it said.
    func ask(_ command: String, _ path: String) -> (failed: Bool, line: String)? {
        guard !path.contains("\n"), !path.contains("\t") else { return nil }
        return lock.withLock {
            if process?.isRunning != true { start() }
            guard let input, let output else { return nil }
            do { try input.write(contentsOf: Data("\(command)\t\(path)\n".utf8)) } catch {
                stop()
                return nil
            }
            // Only new bytes are searched for the line's end: a canonical form can be
            // megabytes, read in pipe-sized pieces.
            var searched = 0
            while true {
                if let newline = pending.withUnsafeBytes({ bytes -> Int? in
                    guard bytes.count > searched, let base = bytes.baseAddress,
                        let found = memchr(base + searched, 0x0A, bytes.count - searched)
                    else { return nil }
                    return base.distance(to: UnsafeRawPointer(found))
                }) {
                    let line = String(decoding: pending.prefix(newline), as: UTF8.self)
                    pending = Data(pending.dropFirst(newline + 1))
                    return line.hasPrefix("!") ? (true, String(line.dropFirst())) : (false, line)
                }
                searched = pending.count
                let more = output.availableData
                if more.isEmpty {
                    stop()
                    return nil
                }
                pending += more
            }
        }
    }

    private func start() {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Harness.canonScript, "serve"]
        let toIt = Pipe(), fromIt = Pipe()
        process.standardInput = toIt
        process.standardOutput = fromIt
        guard (try? process.run()) != nil else { return }
        (self.process, input, output, pending) = (
            process, toIt.fileHandleForWriting, fromIt.fileHandleForReading, Data()
        )
    }

    private func stop() {
        try? input?.close()
        process?.terminate()
        (process, input, output) = (nil, nil, nil)
    }
}
