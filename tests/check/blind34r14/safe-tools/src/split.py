#!/usr/bin/env python3
"""Split the batch sources (=== NNN-name / YAML / --- args / JSON) into safe/NNN-name.yaml + .json."""
import json, os, re, sys, yaml
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "..", "safe")
n = 0
for src in sorted(f for f in os.listdir(HERE) if f.startswith("batch") and f.endswith(".txt")):
    text = open(os.path.join(HERE, src)).read()
    for part in re.split(r"^=== ", text, flags=re.M)[1:]:
        head, rest = part.split("\n", 1)
        name = head.strip()
        y, j = rest.split("\n--- args\n", 1)
        y = y.rstrip() + "\n"
        try:
            exp = yaml.safe_load(y)
        except Exception as e:
            print("YAML ERROR", name, str(e).replace("\n", " ")[:300]); continue
        spec = json.loads(j)
        assert set(spec) <= {"args", "tools"}, name
        open(os.path.join(OUT, name + ".yaml"), "w").write(y)
        open(os.path.join(OUT, name + ".json"), "w").write(json.dumps(spec, indent=1) + "\n")
        n += 1
print(n, "exports")
