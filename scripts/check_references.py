#!/usr/bin/env python3
"""Every file or folder of this repository that its documents name in `code` exists.

A span counts as a reference when it starts with a top-level folder of the repository
(`Sources/…`, `Tests/…`, `scripts/…`) or is a top-level Markdown file (`CHANGELOG.md`).
Placeholders (`<…>`, `…`, `*`) are skipped. Prints one line per reference and
"references: N passed, M failed, 0 skipped".
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCUMENTS = ["README.md", "CONTRIBUTING.md", "ARCHITECTURE.md", "CHANGELOG.md", "Benchmarks/README.md",
             "Tests/peers/README.md", "docs/ATTACKS.md"]
TOP = ("Sources/", "Tests/", "scripts/", "docs/", "Benchmarks/", "man/", "completions/", "Fuzz/", ".ci/")


def references(text):
    for span in re.findall(r"`([^`\n]+)`", text):
        span = span.strip()
        word = span.split()[0] if span.split() else ""
        if any(c in word for c in "<>…*$"):
            continue
        if word.startswith(TOP) or re.fullmatch(r"[A-Z][A-Za-z]*\.md", word):
            yield word.rstrip(".,:;)")


def main():
    passed = failed = 0
    for document in DOCUMENTS:
        path = os.path.join(ROOT, document)
        if not os.path.exists(path):
            continue
        folder = os.path.dirname(document)
        for ref in sorted(set(references(open(path, encoding="utf-8").read()))):
            target = ref.split(":")[0]
            found = os.path.exists(os.path.join(ROOT, target)) or os.path.exists(os.path.join(ROOT, folder, target))
            print(("ok   " if found else "FAIL ") + f"{document} names {target}")
            passed, failed = passed + found, failed + (not found)
    print(f"references: {passed} passed, {failed} failed, 0 skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
