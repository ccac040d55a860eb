#!/usr/bin/env python3
"""Split a bundle (#### NNN-name.yaml, YAML, then '#### json: {...}') into safe/NNN-name.yaml and .json."""
import json, os, sys
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "safe")
for b in sys.argv[1:]:
    cur, buf = None, []
    for line in open(b):
        if line.startswith("#### json:"):
            open(os.path.join(out, cur), "w").write("".join(buf).strip("\n") + "\n")
            data = json.loads(line[len("#### json:"):])
            json.dump(data, open(os.path.join(out, cur[:-5] + ".json"), "w"), indent=1)
            cur, buf = None, []
        elif line.startswith("#### "):
            cur, buf = line[5:].strip(), []
        elif cur:
            buf.append(line)
