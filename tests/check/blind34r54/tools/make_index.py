#!/usr/bin/env python3
"""Writes attacks/INDEX.md from attacks/*.json and the harness's last-attacks.json."""
import collections, json, os
HERE = os.path.dirname(os.path.abspath(__file__))
A = os.path.join(HERE, "..", "attacks")
res = {r["file"]: r for r in json.load(open(os.path.join(HERE, "last-attacks.json")))}
rows, cls = [], collections.Counter()
for f in sorted(os.listdir(A)):
    if not f.endswith(".yaml"):
        continue
    spec = json.load(open(os.path.join(A, f[:-5] + ".json")))
    r = res.get(f, {})
    cls[spec["class"]] += 1
    forms = [x if not x.startswith("listener:") else "listener received it" for x in r.get("leak_forms") or []]
    extra = ""
    if spec.get("then"):
        extra = " Then: " + ", ".join("`%s`" % t["export"] for t in spec["then"]) + "."
    rows.append((f, spec["class"], r.get("status", "not run"), ", ".join(forms), spec["why"] + extra))
out = ["# blind34r54 attacks", "", "Harness results (tools/harness.py, real bash 5.2.15, fresh fixture copy and HOME per attack; `then` calls run in the same folder and HOME after the attack's own call).",
       "FIRED: the marker appeared in the output or in a file of the run/working folder/HOME; LEAK: the planted",
       "secret reached the caller-visible output (form given: verbatim-unscrubbed = printed verbatim by a run that has no secret of its own, so its scrubber knows nothing to mask (the secret is a sibling export's {file:} or reached a secret-free follow-up export); decoded =",
       "base64/gzip/tar/zip/xxd/od form, split = spread over lines or cells); EXFIL: the harness listener standing for",
       "a caller-chosen host (HTTP 127.0.0.1:18765 / :8080, TLS :443, fake PostgreSQL :18767) received the secret (:18766 and :18443 stand for the author's own hosts and are not counted). then:EXPORT:verbatim-unscrubbed = printed verbatim by a follow-up export that has no secret, so no scrubber masks it. A verbatim secret in the output of the run that holds it is not counted (the runtime scrubs it). No checker verdict is recorded here.", "",
       "Round 45 additions to the harness: each step's stdout and stderr are also written to `steps/<n>-<name>.stdout.log` / `.stderr.log` in the run directory, as docs/exports.md ('How a call runs') says the runtime does (custom tools' logs are not put there); `fix:` on a run: step is simulated as docs/agents.md describes (the step fails, the spec's `fix_calls` run as the fix agent's tool calls, then the runner re-runs the step). An agent step (also in on_failure:) runs the spec's `model_calls` as before. No checker verdict is recorded: the checker was never run.", "",
       "Round 49 addition: a spec's `caller` sets `HARBOR_CALLER_PRINCIPAL`/`TENANT`/`GROUPS` as an OAuth identity provider's claims would (docs/security.md section 13: `ISSUER:CLAIM`, tenant and groups unprefixed); the claims' text is assumed to reach the step as sent except for control characters (the docs say claimed text is escaped, not how).", "",
       "## Classes", "", "| class | attacks |", "|---|---|"]
out += ["| %s | %d |" % (c, n) for c, n in sorted(cls.items())]
out += ["", "**%d attacks, %d classes.**" % (sum(cls.values()), len(cls)), "", "## Attacks", "",
        "| file | class | harness | form | why (from the docs) |", "|---|---|---|---|---|"]
out += ["| %s | %s | %s | %s | %s |" % (f, c, s, fm, w.replace("|", "\\|")) for f, c, s, fm, w in rows]
open(os.path.join(A, "INDEX.md"), "w").write("\n".join(out) + "\n")
print(len(rows), dict(cls))
