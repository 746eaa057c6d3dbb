#!/usr/bin/env python3
"""The baseline for settings' JSON rows: Python's json and plistlib doing the same
conversion, with the same tags for what JSON cannot say.

  json_baseline.py export PLIST OUT.json
  json_baseline.py import IN.json OUT.plist
"""
import base64, datetime, json, plistlib, sys


def tag(value):
    if isinstance(value, datetime.datetime):
        return {"$date": value.strftime("%Y-%m-%dT%H:%M:%SZ")}
    if isinstance(value, bytes):
        return {"$data": base64.b64encode(value).decode()}
    raise TypeError(type(value))


def untag(obj):
    if len(obj) == 1:
        (key, value), = obj.items()
        if key == "$date":
            return datetime.datetime.strptime(value, "%Y-%m-%dT%H:%M:%SZ")
        if key == "$data":
            return base64.b64decode(value)
    return obj


command, source, target = sys.argv[1:]
if command == "export":
    with open(source, "rb") as f, open(target, "w") as out:
        json.dump(plistlib.load(f), out, default=tag, separators=(",", ":"), ensure_ascii=False)
else:
    with open(source) as f, open(target, "wb") as out:
        plistlib.dump(json.load(f, object_hook=untag), out)
