#!/usr/bin/env python3
"""Writes a dconf keyfile of the same 100,000 keys as the benchmark's big domain, under
[bench], for `dconf compile`: dconf is what issue 34 measures a one-key read against (a
hashed, memory-mapped database). Each value is the plistlib value's text as a GVariant
string: a dconf lookup costs the same whatever the value's type.

  make_dconf.py BIG_PLIST KEYFILE_DIR
"""
import os, plistlib, sys

big, folder = sys.argv[1], sys.argv[2]
os.makedirs(folder, exist_ok=True)
with open(big, "rb") as f:
    domain = plistlib.load(f)
with open(os.path.join(folder, "bench"), "w") as out:
    out.write("[bench]\n")
    for key, value in domain.items():
        text = str(value).replace("\\", "\\\\").replace("'", "\\'")
        out.write(f"{key}='{text}'\n")
