#!/usr/bin/env python3
"""Every file or folder of this repository that its documents name in `code` or link to exists.

A span counts as a reference when it starts with a top-level folder of the repository
(`Sources/…`, `Tests/…`, `scripts/…`) or is a top-level Markdown file (`CHANGELOG.md`).
Placeholders (`<…>`, `…`, `*`) are skipped. A Markdown link to a relative path
(`[Schemas](docs/schemas.md)`, `![plot](../Benchmarks/growth.svg)`) counts too, from the
document's folder. The documents are the top-level ones, the guides in docs/ and the READMEs
of Benchmarks/ and Tests/peers/. Prints one line per reference and
"references: N passed, M failed, 0 skipped".
"""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCUMENTS = ["README.md", "CONTRIBUTING.md", "ARCHITECTURE.md", "CHANGELOG.md", "Benchmarks/README.md",
             "Tests/peers/README.md"] + sorted(
    os.path.relpath(path, ROOT) for path in glob.glob(os.path.join(ROOT, "docs", "*.md")))
TOP = ("Sources/", "Tests/", "scripts/", "docs/", "Benchmarks/", "man/", "completions/", "Fuzz/", ".ci/")


def references(text):
    for span in re.findall(r"`([^`\n]+)`", text):
        span = span.strip()
        word = span.split()[0] if span.split() else ""
        if any(c in word for c in "<>…*$"):
            continue
        if word.startswith(TOP) or re.fullmatch(r"[A-Z][A-Za-z]*\.md", word):
            yield word.rstrip(".,:;)")


def links(text):
    """Relative paths of Markdown links and images (not URLs, not anchors)."""
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        target = target.split("#")[0]
        if target and not re.match(r"^[a-z]+:", target):
            yield target


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
        for link in sorted(set(links(open(path, encoding="utf-8").read()))):
            found = os.path.exists(os.path.normpath(os.path.join(ROOT, folder, link)))
            print(("ok   " if found else "FAIL ") + f"{document} links to {link}")
            passed, failed = passed + found, failed + (not found)
    print(f"references: {passed} passed, {failed} failed, 0 skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
