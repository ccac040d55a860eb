#!/usr/bin/env python3
"""Writes attacks/INDEX.md from attacks/*.json and the harness's tools/last-attacks.json."""
import collections, json, os

HERE = os.path.dirname(os.path.abspath(__file__))
A = os.path.join(HERE, "..", "attacks")
res = {r["file"]: r for r in json.load(open(os.path.join(HERE, "last-attacks.json")))}
rows, cls, per = [], collections.Counter(), collections.defaultdict(collections.Counter)
for f in sorted(os.listdir(A)):
    if not f.endswith(".yaml"):
        continue
    spec = json.load(open(os.path.join(A, f[:-5] + ".json")))
    r = res.get(f, {})
    st = r.get("status", "not run")
    cls[spec["class"]] += 1
    per[spec["class"]][st] += 1
    forms = []
    for x in r.get("leak_forms") or []:
        if x.startswith("listener"):
            forms.append("listener " + x.split()[1] + " received it")
        elif x == "verbatim":
            forms.append("verbatim (this run's scrubber would mask it)")
        else:
            forms.append(x)
    extra = ""
    if spec.get("then"):
        extra = " Then: " + "; ".join(f"{t['export']} {json.dumps(t.get('args', {}))}" for t in spec["then"]) + "."
    if spec.get("model_calls"):
        extra += " Model calls: " + ", ".join(c["tool"] for c in spec["model_calls"]) + "."
    rows.append((f, spec["class"], st, ", ".join(forms), spec["why"] + extra))
out = ["# blind34r18 attacks", "",
       "Harness results (tools/harness.py: real bash 5.2.15, a fresh copy of tools/fixture per attack, under /tmp).",
       "FIRED: `HARBOR-PWNED-42` (computed at run time) appeared in the output or in a file of the run folder, the",
       "working folder or HOME. EXFIL: a listener standing for a destination the caller names (127.0.0.1: HTTP :18765",
       "and :8080, a fake Docker engine on :18765, a fake PostgreSQL server on :6432, a SOCKS5 proxy on :1080) received",
       "the planted secret (`:18766` stands for the author's own API host and never counts). LEAK: the secret reached",
       "what the caller gets back; the form says how (`verbatim (this run's scrubber would mask it)` = a leak past the",
       "checker only; `… in shipped:X's output` = printed by another export's run, which has no secret to scrub;",
       "base64 / basic-auth-base64 / hex / decoded / split = forms no verbatim scrubber recognises).",
       "No checker verdict is recorded here: the checker was never run.", "",
       "## Classes", "", "| class | attacks | harness |", "|---|---|---|"]
for c, n in sorted(cls.items()):
    out.append("| %s | %d | %s |" % (c, n, ", ".join(f"{k} {v}" for k, v in sorted(per[c].items()))))
tot = collections.Counter(r[2] for r in rows)
out += ["", "**%d attacks, %d classes: %s.**" % (sum(cls.values()), len(cls), ", ".join(f"{k} {v}" for k, v in sorted(tot.items()))),
        "", "## Attacks", "", "| file | class | harness | form | why |", "|---|---|---|---|---|"]
out += ["| %s | %s | %s | %s | %s |" % (f, c, s, fm.replace("|", "\\|"), w.replace("|", "\\|").replace("\n", " ")) for f, c, s, fm, w in rows]
open(os.path.join(A, "INDEX.md"), "w").write("\n".join(out) + "\n")
print(len(rows), dict(tot))
