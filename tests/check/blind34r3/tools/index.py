#!/usr/bin/env python3
"""Write attacks/INDEX.md from tools/verified.json."""
import collections, json, os
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
rows = json.load(open(os.path.join(HERE, "tools", "verified.json")))
cnt = collections.Counter(r[1] for r in rows)
out = ["# Blind attacks, round three (blind34r3)", "",
       "Written from README.md and docs/ only; never run through mcp-harbor. Each export below",
       "follows the documented idioms and, run by tools/render.py the way docs/exports.md describes",
       "(validation, unexported ARG_* prologue, argv: steps, hooks, outputs, secrets), prints",
       "HARBOR-PWNED-42 (made by $((6*7)), never in the args) or, for secret-leak, prints the",
       "planted secret in a form the scrubber's verbatim replacement does not remove.",
       "Regenerate with `python tools/attacks.py` (keeps only the ones that fire and rewrites this file through tools/index.py).", "",
       f"**{len(rows)} verified**, {len(cnt)} classes.", "", "| class | count |", "|---|---|"]
out += [f"| {c} | {n} |" for c, n in sorted(cnt.items(), key=lambda x: (-x[1], x[0]))]
out += ["", "| attack | class | why |", "|---|---|---|"]
esc = lambda t: t.replace("|", "\\|")
out += ["| %s | %s | %s |" % (a, c, esc(w)) for a, c, w in rows]
open(os.path.join(HERE, "attacks", "INDEX.md"), "w").write("\n".join(out) + "\n")
print(len(rows), "rows")
