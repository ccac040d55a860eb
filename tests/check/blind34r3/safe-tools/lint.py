#!/usr/bin/env python3
"""Structural lint of exports per docs/exports.md (keys, names, placeholders, patterns)."""
import glob, os, re, sys, yaml
TOP = {"name","title","description","args","required","timeout","output_tail","annotations","allow","confirm","approvers",
       "approval_timeout","concurrency","queue_timeout","task","task_ttl","rate_limit","output_schema","memory","attachments",
       "needs","sandbox","pass_env","secrets","programs","runs_on","redispatch","tools","steps","on_failure","finally"}
STEP = {"name","run","argv","agent","fix","timeout","env","cwd","continue_on_error","if","retry"}
PROG = {"options_with_value","flags","end_of_options","runs_operands","code_options","stdin"}
SANDBOX = {"network","writable","readable","limits"}
PH = re.compile(r"\{\{\s*args\.([A-Za-z_][A-Za-z0-9_]*)\s*(\|\s*([a-z]+)\s*)?\}\}")
names = {}; bad = 0
for f in sorted(glob.glob(sys.argv[1] + "/*.yaml")):
    errs = []
    try: e = yaml.safe_load(open(f))
    except Exception as x: print(f, "YAML", x); bad += 1; continue
    for k in e:
        if k not in TOP: errs.append(f"unknown key {k}")
    for k in ("name","description","steps"):
        if k not in e: errs.append(f"missing {k}")
    if e.get("name") in names: errs.append(f"dup name with {names[e['name']]}")
    names[e.get("name")] = f
    args = e.get("args") or {}
    for a, s in args.items():
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", a): errs.append(f"bad arg {a}")
        if "pattern" in s and s.get("type") not in ("string", ["string","null"]): errs.append(f"pattern w/o string {a}")
        if s.get("items", {}).get("pattern") and s["items"].get("type") != "string": errs.append(f"items.pattern {a}")
        d = s.get("default")
        if isinstance(d, str) and d.startswith("-") and not s.get("leading_dash") and "enum" not in s: errs.append(f"dash default {a}")
        if "pattern" in s:
            try: re.compile(s["pattern"])
            except re.error as x: errs.append(f"bad regex {a}: {x}")
    for r in e.get("required") or []:
        if r not in args: errs.append(f"required {r} undeclared")
    for k in (e.get("sandbox") or {}):
        if k not in SANDBOX: errs.append(f"sandbox key {k}")
    for p, g in (e.get("programs") or {}).items():
        for k in g:
            if k not in PROG: errs.append(f"programs key {k}")
    allsteps = (e.get("steps") or []) + (e.get("on_failure") or []) + (e.get("finally") or [])
    seen = set()
    for st in allsteps:
        for k in st:
            if k not in STEP: errs.append(f"step key {k}")
        if st.get("name") in seen: errs.append("dup step")
        seen.add(st.get("name"))
        if sum(k in st for k in ("run","argv","agent")) != 1: errs.append("run/argv")
        txt = st.get("run") or " ".join(map(str, st.get("argv") or []))
        for m in PH.finditer(txt):
            if m.group(1) not in args: errs.append(f"placeholder {m.group(1)} undeclared")
            if m.group(3) not in (None, "shellquote"): errs.append("filter")
        for m in re.finditer(r"\$\{?ARG_([A-Za-z0-9_]+)", txt):
            if m.group(1) not in args: errs.append(f"ARG_{m.group(1)} undeclared")
        for m in re.finditer(r"\$\{?STEP_([A-Za-z0-9]+)_", txt):
            if m.group(1) not in seen: errs.append(f"STEP_{m.group(1)} unknown")
    if errs: bad += 1; print(os.path.basename(f), errs)
print(len(names), "exports;", bad, "with problems")
