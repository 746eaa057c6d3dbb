#!/usr/bin/env python3
"""Compiles and runs every Swift block of the README, of the guides in docs/ and of SettingsKit's
DocC articles, as a newcomer would paste each one into a program of their own, and checks the
compiler's messages for the mistakes a newcomer makes.

Each ```swift block is one program: it becomes the main.swift of its own executable target
in a scratch package that depends on this repository's SettingsKit, in Swift 6 language
mode. The package is built once; each program then runs with a scratch XDG_CONFIG_HOME and
HOME and must exit 0 within 30 seconds. A block whose fence says more than `swift`
(```swift macos) is shown, not compiled: macOS code for comparison.

Each file of Tests/docs/swift/diagnostics/ is a program that must not compile: every line
marked `// expect: error: TEXT` or `// expect: warning: TEXT` must get that diagnostic, and
no other line may get an error. (A block must not leave a warning unmarked either: a
dropped observation token is one.)

Prints one line per check and "swift-docs: N passed, M failed, 0 skipped".

usage: Tests/docs/swift_blocks.py [FILE.md ...]   (default: README.md, docs/*.md and the DocC articles)
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import blocks as markdown_blocks  # noqa: E402  (the README runner's fence reader)

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXPECT = re.compile(r"//\s*expect:\s*(error|warning):\s*(.+?)\s*$")
DIAGNOSTIC = re.compile(r"^(?:.*/)?main\.swift:(\d+):\d+: (error|warning): (.*)$")


def swift_blocks(path):
    """(line number, source) for each ```swift block of a Markdown file (fenced exactly so)."""
    return [(line, "\n".join(lines) + "\n") for line, language, lines, _ in markdown_blocks(path) if language == "swift"]


def write_package(root, programs):
    """A package with one executable target per program (name -> source)."""
    targets = ",\n".join(
        f'        .executableTarget(name: "{name}", dependencies: [.product(name: "SettingsKit", package: "settings")])'
        for name in programs)
    with open(os.path.join(root, "Package.swift"), "w") as f:
        f.write(f"""// swift-tools-version:6.0
import PackageDescription
let package = Package(
    name: "swift-docs",
    dependencies: [.package(name: "settings", path: "{REPO}")],
    targets: [
{targets}
    ]
)
""")
    for name, source in programs.items():
        folder = os.path.join(root, "Sources", name)
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "main.swift"), "w") as f:
            f.write(source)


def build(root, target=None, product=None):
    command = ["swift", "build", "--package-path", root]
    if target:
        command += ["--target", target]
    if product:
        command += ["--product", product]
    done = subprocess.run(command, capture_output=True, text=True)
    return done.returncode, done.stdout + done.stderr


def diagnostics_of(output, name):
    """(line, kind, message) the compiler printed for target `name`'s main.swift."""
    found = set()
    for line in output.split("\n"):
        if f"/Sources/{name}/main.swift:" not in line:
            continue
        m = DIAGNOSTIC.match(line.strip())
        if m:
            found.add((int(m.group(1)), m.group(2), m.group(3)))
    return found


def main():
    documents = sys.argv[1:] or [os.path.join(REPO, "README.md")] + sorted(
        glob.glob(os.path.join(REPO, "docs/*.md"))) + sorted(
        glob.glob(os.path.join(REPO, "Sources/SettingsKit/SettingsKit.docc/*.md")))
    programs, origin = {}, {}
    for document in documents:
        stem = re.sub(r"[^A-Za-z0-9]", "_", os.path.splitext(os.path.basename(document))[0])
        for number, (line, source) in enumerate(swift_blocks(document), 1):
            name = f"{stem}_{number}"
            programs[name] = source
            origin[name] = f"{os.path.relpath(document, REPO)}:{line}"
    diagnostic_files = sorted(glob.glob(os.path.join(REPO, "Tests/docs/swift/diagnostics/*.swift")))
    diagnostic_programs = {
        "diag_" + re.sub(r"[^A-Za-z0-9]", "_", os.path.splitext(os.path.basename(p))[0]): p for p in diagnostic_files
    }
    passed = failed = 0

    def report(ok, what, detail=""):
        nonlocal passed, failed
        if ok:
            passed += 1
            print(f"ok   {what}")
        else:
            failed += 1
            print(f"FAIL {what}\n{detail}".rstrip())

    root = tempfile.mkdtemp(prefix="swift-docs-")
    every = dict(programs)
    for name, path in diagnostic_programs.items():
        every[name] = open(path, encoding="utf-8").read()
    write_package(root, every)
    # The blocks first: each must compile with no warning.
    for name in programs:
        status, output = build(root, name)
        warnings = [d for d in diagnostics_of(output, name) if d[1] == "warning"]
        report(
            status == 0 and not warnings, f"compiles without warnings: {origin[name]}",
            output[-3000:] if status != 0 else "\n".join(f"  line {l}: {m}" for l, _, m in sorted(warnings)))
    for name in programs:
        build(root, product=name)
        binary = os.path.join(root, ".build", "debug", name)
        if not os.path.exists(binary):
            report(False, f"runs: {origin[name]}", "  not built")
            continue
        scratch = tempfile.mkdtemp(prefix="swift-docs-run-")
        environment = dict(os.environ, XDG_CONFIG_HOME=scratch, HOME=scratch, XDG_DATA_HOME=scratch + "/data")
        try:
            done = subprocess.run([binary], capture_output=True, text=True, env=environment, timeout=30, cwd=scratch)
            report(done.returncode == 0, f"runs: {origin[name]}", done.stdout[-1500:] + done.stderr[-1500:])
        except subprocess.TimeoutExpired:
            report(False, f"runs: {origin[name]}", "  still running after 30 s")
    # Then the mistakes: each marked line gets its diagnostic, and no other line an error.
    for name, path in diagnostic_programs.items():
        expected = []
        for number, text in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
            m = EXPECT.search(text)
            if m:
                expected.append((number, m.group(1), m.group(2)))
        status, output = build(root, name)
        got = diagnostics_of(output, name)
        for number, kind, text in expected:
            ok = any(l == number and k == kind and text in message for l, k, message in got)
            report(ok, f"{os.path.relpath(path, REPO)}:{number}: {kind}: {text}",
                   "\n".join(f"  line {l}: {k}: {m}" for l, k, m in sorted(got)))
        marked = {number for number, _, _ in expected}
        stray = [d for d in got if d[1] == "error" and d[0] not in marked]
        report(not stray and expected, f"{os.path.relpath(path, REPO)}: no other errors",
               "\n".join(f"  line {l}: {m}" for l, _, m in sorted(stray)))
    print(f"swift-docs: {passed} passed, {failed} failed, 0 skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
