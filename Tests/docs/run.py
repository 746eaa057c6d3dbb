#!/usr/bin/env python3
"""Runs every shell block of README.md and of each guide in docs/, in order, as a newcomer would
paste it: in a scratch folder, with a scratch HOME and XDG_CONFIG_HOME, and the release binary
first on PATH, in a D-Bus session of its own (dbus-run-session) where one can be started. Each document starts from a scratch folder of its own, so a guide holds all the
set-up its blocks need.

Each line of a ```sh block is one check. It must exit 0, unless its comment says otherwise:
  (exit N)   the line must exit with status N (the README shows a refusal);
  (waits)    the line waits for something that never comes here (a watch): it must still be
             running after a second, not ended by a usage error, and is then stopped.
An HTML comment on the line before a block's fence says how to treat the whole block:
  <!-- doc-test: not run: REASON -->   install commands and rc-file lines, run elsewhere
  <!-- doc-test: in the repository --> runs in the repository instead of the scratch folder
  <!-- doc-test: file PATH -->         the block (any language) is written to PATH first
                                       ($XDG_CONFIG_HOME and $HOME are the scratch ones)
Lines run in one bash, with pipefail, so a `cd` or a variable carries to the next line.

The scratch folder starts empty, as a reader's does: no set-up the reader does not see.
After the run of a document whose blocks write App/Info.plist (the CI example), that file must
still be binary and hold the new build number, as the guide says. A document with no shell
block (docs/ATTACKS.md) is named and passed over. Prints one line per check and
"docs: N passed, M failed, 0 skipped".

usage: Tests/docs/run.py [DOCUMENT.md ...] [BIN_DIR]
       (default: README.md; BIN_DIR, the one argument that is a folder, default .build/release)
"""
import os
import plistlib
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

MARKER = re.compile(r"^<!-- doc-test: (not run: .+|in the repository|file (\S+)) -->$")
BUILD_NUMBER = "42"


def blocks(readme):
    """(line number, language, lines, marker) for each fenced block."""
    lines = open(readme, encoding="utf-8").read().split("\n")
    found, i = [], 0
    while i < len(lines):
        if lines[i].startswith("```"):
            language = lines[i][3:].strip()
            marker = MARKER.match(lines[i - 1]) if i > 0 else None
            end = i + 1
            while not lines[end].startswith("```"):
                end += 1
            found.append((i + 2, language, lines[i + 1:end], marker))
            i = end
        i += 1
    return found


def script_for(readme, name, repository, scratch):
    """The bash program that runs every check and prints 'ok'/'FAIL' lines."""
    out = [
        "set -o pipefail",
        "set -m  # each background line in its own process group, so it can be stopped whole",
        f"cd {shlex.quote(scratch)}/work",
        "check() { if [ \"$1\" = \"$2\" ]; then echo \"ok   $3\"; else echo \"FAIL $3: exit $1, expected $2\"; fi; }",
    ]
    for start, language, lines, marker in blocks(readme):
        note = marker.group(1) if marker else ""
        if note.startswith("not run"):
            out.append(f"echo {shlex.quote(f'     {name}:{start - 1}: {note}')}")
            continue
        if note.startswith("file "):
            path = marker.group(2)
            out.append(f"mkdir -p \"$(dirname \"{path}\")\" && cat > \"{path}\" <<'README_BLOCK'")
            out += lines + ["README_BLOCK"]
            continue
        if language != "sh":
            continue
        if note == "in the repository":
            out.append(f"pushd {shlex.quote(repository)} >/dev/null")
        for offset, line in enumerate(lines):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            where = shlex.quote(f"{name}:{start + offset}: {line.strip()}")
            expected = re.search(r"\(exit (\d+)\)", line)
            if "(waits)" in line:
                out.append("(")
                out.append(line)
                out.append(") </dev/null & pid=$!; sleep 1")
                out.append(f"if kill -0 $pid 2>/dev/null; then kill -- -$pid; wait $pid; echo \"ok   \"{where}; "
                           f"else wait $pid; echo \"FAIL \"{where}\": ended (exit $?) instead of waiting\"; fi")
            else:
                out.append("{")
                out.append(line)
                out.append(f"}} </dev/null; check $? {expected.group(1) if expected else 0} {where}")
        if note == "in the repository":
            out.append("popd >/dev/null")
    return "\n".join(out) + "\n"


def runs_a_line(document):
    """Whether the document has a shell block that runs (not marked 'not run')."""
    return any(language == "sh" and not (marker and marker.group(1).startswith("not run"))
               for _, language, _, marker in blocks(document))


def run_document(document, bindir):
    """Runs one document's blocks in a scratch folder of its own: (passed, failed)."""
    name = os.path.relpath(os.path.abspath(document))
    repository = os.path.dirname(os.path.abspath(document))
    # A guide in docs/ runs "in the repository" blocks at the repository's root, as the README does.
    if os.path.basename(repository) == "docs":
        repository = os.path.dirname(repository)
    passed = failed = 0
    with tempfile.TemporaryDirectory() as scratch:
        # Nothing a reader would not have: an empty folder, a home and a config folder.
        for sub in ("work", "home", "config"):
            os.makedirs(os.path.join(scratch, sub))
        info = os.path.join(scratch, "work/App/Info.plist")
        env = {"PATH": bindir + os.pathsep + os.environ["PATH"], "HOME": os.path.join(scratch, "home"),
               "XDG_CONFIG_HOME": os.path.join(scratch, "config"), "LANG": "C.UTF-8"}
        # In a D-Bus session of its own where there is one to start, as on a desktop, so the
        # desktop's settings (`gsettings:` domains, written through dconf's service) run too.
        session = ["dbus-run-session", "--"] if shutil.which("dbus-run-session") else []
        run = subprocess.run(session + ["bash", "-c", script_for(document, name, repository, scratch)], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=900)
        for line in run.stdout.splitlines():
            if re.match(r"^\[\d+\][+-]? +(Done|Terminated)", line):
                continue  # bash's notice that a stopped (waits) line has ended
            print(line)
            passed += line.startswith("ok   ")
            failed += line.startswith("FAIL ")
        if any(language == "sh" and any("App/Info.plist" in line for line in lines)
               for _, language, lines, _ in blocks(document)):
            data = open(info, "rb").read() if os.path.exists(info) else b""
            kept = data.startswith(b"bplist00") and plistlib.loads(data).get("CFBundleVersion") == BUILD_NUMBER
            print(("ok   " if kept else "FAIL ") + f"{name}: App/Info.plist is still binary and holds the build number")
            passed += kept
            failed += not kept
    return passed, failed


def main():
    arguments = sys.argv[1:]
    folders = [a for a in arguments if os.path.isdir(a)]
    documents = [a for a in arguments if not os.path.isdir(a)] or ["README.md"]
    bindir = os.path.abspath(folders[0] if folders else ".build/release")
    passed = failed = 0
    for document in documents:
        if not runs_a_line(document):
            print(f"     {os.path.relpath(os.path.abspath(document))}: no shell block to run")
            continue
        p, f = run_document(document, bindir)
        passed, failed = passed + p, failed + f
    if passed == 0:
        failed += 1
        print("FAIL no documented line ran")
    print(f"docs: {passed} passed, {failed} failed, 0 skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
