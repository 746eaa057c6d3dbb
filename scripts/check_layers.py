#!/usr/bin/env python3
"""Checks that SettingsCore's layers import one way: a file may use the names declared in
its own layer and the layers below it, never one above. Between targets the compiler
checks it (PlistModel → PlistCodecs → SettingsStore: an upward import does not compile);
this checks the layers inside a target: Value below Types in PlistModel, System beside
Schema and the store in SettingsStore.

    Value → Types → Codecs → Store (with Schema), and System beside them, used by Store only

Names are the types, enums, protocols, type aliases and top-level functions each layer's
files declare; a use is the name as a whole word outside comments and string literals.
And only System, the door to the OS, imports the C library (Glibc or Musl), with one
exception: the value layer's local-time offset, which is the C library's time-zone rules.
And no library sets process-wide policy (a signal's handler for SIGBUS, malloc's tuning, a
thread's CPUs): those are a program's choice, made by the executable (`Sources/settings`),
so a Swift program linking the libraries gets none of them.
Prints each upward use as FILE:LINE: LAYER uses NAME (LAYER) and exits 1 if there is one.

usage: scripts/check_layers.py [Sources]
"""
import glob
import os
import re
import sys

# Each layer and the layers it may use.
ALLOWED = {
    "Value": set(),
    "Types": {"Value"},
    "Codecs": {"Value", "Types"},
    "System": set(),
    "Schema": {"Value", "Types", "Codecs", "System"},
    "Store": {"Value", "Types", "Codecs", "System", "Schema"},
}
# Where each layer's files are: a target's own folder holds its top layer (no folder that
# only repeats the target's name), its lower layers are subfolders.
FOLDER = {
    "Value": "PlistModel/Value",
    "Types": "PlistModel/Types",
    "Codecs": "PlistCodecs",
    "System": "SettingsStore/System",
    "Schema": "SettingsStore/Schema",
    "Store": "SettingsStore",
}
C_LIBRARY_ALLOWED = {"System", "Value/LocalTime.swift"}
# Calls that set policy for the whole process, which only the executable may make.
PROCESS_POLICY = re.compile(r"\b(mallopt|mallctl|sched_setaffinity|pthread_attr_setaffinity_np|"
                            r"pthread_setaffinity_np)\b|\b(signal|sigaction)\(\s*SIGBUS\b")
EXECUTABLE = "settings"
DECLARATION = re.compile(r"^(?:public |package |internal |fileprivate |private |final |indirect )*"
                         r"(?:struct|enum|class|protocol|typealias|actor|func|let|var)\s+([A-Za-z_][A-Za-z0-9_]*)")


def code_lines(path):
    """(number, text) of each line with comments and string literals blanked."""
    in_block = False
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        if in_block:
            if '"""' in line:
                in_block = False
            continue
        if line.strip().startswith('"""') or line.rstrip().endswith('"""'):
            in_block = line.count('"""') == 1
            continue
        line = re.sub(r'"(?:\\.|[^"\\])*"', '""', line)
        line = line.split("//")[0]
        yield number, line


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "Sources"
    files = {layer: sorted(glob.glob(os.path.join(root, FOLDER[layer], "*.swift"))) for layer in ALLOWED}
    if not all(files.values()):
        print(f"layers: no files for {[layer for layer, paths in files.items() if not paths]} under {root}")
        return 1
    owner = {}
    for layer, paths in files.items():
        for path in paths:
            for _, line in code_lines(path):
                m = DECLARATION.match(line)  # top level only: no indentation
                if m:
                    owner.setdefault(m.group(1), layer)
    problems = 0
    for layer, paths in files.items():
        for path in paths:
            relative = f"{layer}/{os.path.basename(path)}"
            for number, line in code_lines(path):
                if re.match(r"\s*import (Glibc|Musl)\b", line) and layer not in C_LIBRARY_ALLOWED and relative not in C_LIBRARY_ALLOWED:
                    print(f"{path}:{number}: {layer} imports the C library past the System door")
                    problems += 1
                for word in set(re.findall(r"\b[A-Za-z_][A-Za-z0-9_]*\b", line)):
                    other = owner.get(word)
                    if other and other != layer and other not in ALLOWED[layer]:
                        print(f"{path}:{number}: {layer} uses {word} ({other})")
                        problems += 1
    for path in sorted(glob.glob(os.path.join(root, "**", "*.swift"), recursive=True)):
        if os.path.relpath(path, root).split(os.sep)[0] == EXECUTABLE:
            continue
        for number, line in code_lines(path):
            if PROCESS_POLICY.search(line):
                print(f"{path}:{number}: a library sets process-wide policy (the executable's choice)")
                problems += 1
    print(f"layers: {problems} upward uses, C library imports or library policies")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
