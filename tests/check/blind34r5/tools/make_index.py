import json, glob, os, collections

HERE = os.path.dirname(os.path.abspath(__file__))
rows = []
cnt = collections.Counter()
for f in sorted(glob.glob(os.path.join(HERE, "../attacks/*.json"))):
    j = json.load(open(f))
    n = os.path.basename(f)[:-5]
    cnt[j["class"]] += 1
    rows.append((n, j["class"], j["why"]))
res = {
    r["file"][:-5]: r["status"] for r in json.load(open(os.path.join(HERE, "last-attacks.json")))
}
out = [
    "# blind34r5 attacks",
    "",
    f"{len(rows)} exports. Each one fired in `tools/harness.py --attack` with the arguments in its .json: it printed HARBOR-PWNED-42, which the shell works out at run time, so the marker never appears literally in the args. The secret-leak ones leaked instead: the planted secret came out in a form a verbatim scrubber misses. See ../README.md. The last column is the harness result.",
    "",
    "## Classes",
    "",
    "| class | count |",
    "|---|---|",
]
for c, k in cnt.items():
    out.append(f"| {c} | {k} |")
out += ["", "## Attacks", "", "| attack | class | harness | why |", "|---|---|---|---|"]
for n, c, w in rows:
    w = w.replace("|", "\\|")
    out.append(f"| {n} | {c} | {res.get(n, '?')} | {w} |")
open(os.path.join(HERE, "../attacks/INDEX.md"), "w").write("\n".join(out) + "\n")
print(dict(cnt))
