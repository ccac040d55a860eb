#!/usr/bin/env python3
"""attacks/INDEX.md from the attack files and the harness's last run (last-attacks.json)."""
import collections, glob, json, os
HERE = os.path.dirname(os.path.abspath(__file__))
AT = os.path.join(HERE, "..", "attacks")
res = {r["file"]: r for r in json.load(open(os.path.join(HERE, "last-attacks.json")))}
rows, by = [], collections.OrderedDict()
for y in sorted(glob.glob(os.path.join(AT, "*.yaml"))):
    spec = json.load(open(y[:-5] + ".json"))
    f = os.path.basename(y)
    r = res.get(f, {})
    st = r.get("status", "not run")
    if st == "LEAK":
        st += " (" + ", ".join(r.get("leak_forms") or []) + ")"
    by.setdefault(spec["class"], []).append(f)
    rows.append((f, spec["class"], st, spec["why"]))
out = ["# blind34r6 attacks: index", "",
       f"{len(rows)} attacks in {len(by)} classes. Harness result = `tools/harness.py --attack` under real bash "
       "(FIRED: HARBOR-PWNED-42 computed at run time appeared in what the caller gets back or in a file of the "
       "run/working folder or $HOME; LEAK: the planted secret came back in a form a verbatim scrubber misses, the form is named). "
       "No checker verdict is recorded: the checker was never run.", "",
       "## Classes", "", "| class | attacks |", "|---|---|"]
for c, fs in by.items():
    out.append(f"| {c} | {len(fs)} |")
out += ["", "## Attacks", "", "| file | class | harness | why the docs suggest it is accepted / what fires |", "|---|---|---|---|"]
for f, c, st, why in rows:
    w = why.replace("|", "\\|")
    out.append(f"| {f} | {c} | {st} | {w} |")
open(os.path.join(AT, "INDEX.md"), "w").write("\n".join(out) + "\n")
print(len(rows), "rows,", len(by), "classes")
