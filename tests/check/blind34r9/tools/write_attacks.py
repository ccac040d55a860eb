#!/usr/bin/env python3
"""Runs gen_attacks.py's definitions and writes attacks/NNN-name.yaml + .json."""
import json, os, runpy
HERE = os.path.dirname(os.path.abspath(__file__))
g = runpy.run_path(os.path.join(HERE, "gen_attacks.py"))
ATT, OUT = g["ATT"], os.path.join(HERE, "..", "attacks")
os.makedirs(OUT, exist_ok=True)
for f in os.listdir(OUT):
    if f[:3].isdigit():
        os.unlink(os.path.join(OUT, f))
for i, (name, cls, y, args, why, mc) in enumerate(ATT, 1):
    base = os.path.join(OUT, "%03d-%s" % (i, name))
    open(base + ".yaml", "w").write(y)
    spec = {"args": args, "class": cls, "why": why}
    if mc:
        spec["model_calls"] = mc
    json.dump(spec, open(base + ".json", "w"), indent=1)
    assert "HARBOR-PWNED-42" not in json.dumps(args) + json.dumps(mc or [])
import yaml
for f in sorted(os.listdir(OUT)):
    if f.endswith(".yaml"):
        try:
            yaml.safe_load(open(os.path.join(OUT, f)))
        except Exception as e:
            print("YAML ERROR", f, str(e).splitlines()[-1])
print(len(ATT), "attacks")
