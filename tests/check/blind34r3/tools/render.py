#!/usr/bin/env python3
"""Hand-render an export the way docs/exports.md says the runtime runs it,
and run it under real bash (never mcp-harbor). Adapted from blind34r2's
render.py (round two), with:
  * argument validation as documented (JSON Schema 2020-12, pattern matched
    against the WHOLE value, leading '-' refused unless leading_dash/enum/const,
    line breaks refused unless multiline, NUL refused, within: resolved with
    realpath from the working directory), so a hostile value that the runtime
    would refuse is reported as invalid instead of counted;
  * attachments decoded to $HARBOR_RUN_DIR/inputs/<arg><ext>;
  * ARG_*, STEP_<step>_<key> and secrets as UNEXPORTED shell variables set on
    the script's first line with $'\\xHH' quoting;
  * argv: steps exec'd directly; secrets in their env unless a placeholder is
    in their argv;
  * on_failure: when the pipeline failed, finally: always;
  * a fresh HOME, working directory and run directory per run;
  * the scrubber's first form (the verbatim value -> ***) applied to outputs
    and run files before a leak is looked for; a leak is the secret still
    present once quotes, backslashes and whitespace are removed.
"""
import base64, json, os, re, shlex, subprocess, sys, tempfile, shutil
import yaml
import jsonschema

SECRET = "s3cr3tT0ken99"
MARK = "HARBOR-PWNED-42"
HARBOR_KW = {"multiline", "secret", "leading_dash", "disposition", "max_bytes", "within"}
EXT = {"text/plain": ".txt", "application/zip": ".zip", "application/x-tar": ".tar",
       "application/gzip": ".gz", "text/x-python": ".py", "application/json": ".json",
       "text/x-diff": ".diff", "text/markdown": ".md"}


def text(v):
    if isinstance(v, bool): return "true" if v else "false"
    if isinstance(v, (dict, list)): return json.dumps(v, separators=(",", ":"))
    if v is None: return ""
    return v if isinstance(v, str) else json.dumps(v)


def ansi(s):
    return "$'" + "".join("\\x%02x" % b for b in s.encode()) + "'"


PH = re.compile(r"\{\{\s*args\.([A-Za-z_][A-Za-z0-9_]*)\s*(\|\s*(shellquote)\s*)?\}\}")


def render(s, vals):
    def rep(m):
        t = vals.get(m.group(1), "")
        return shlex.quote(t) if m.group(3) else t
    return PH.sub(rep, s)


def clean_schema(s):
    if isinstance(s, dict):
        return {k: clean_schema(v) for k, v in s.items() if k not in HARBOR_KW}
    if isinstance(s, list):
        return [clean_schema(x) for x in s]
    return s


def validate(exp, args, workdir):
    errs = []
    sch = {"type": "object", "properties": {k: clean_schema(v) for k, v in (exp.get("args") or {}).items()},
           "required": exp.get("required", [])}
    for e in jsonschema.Draft202012Validator(sch, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER).iter_errors(args):
        errs.append(e.message)
    for name, s in (exp.get("args") or {}).items():
        if name not in args: continue
        v = args[name]
        exempt = "enum" in s or "const" in s

        def chk(x, where, sch_):
            if not isinstance(x, str): return
            if "\x00" in x: errs.append(f"{where}: NUL")
            if x.startswith("-") and not s.get("leading_dash") and not ("enum" in sch_ or "const" in sch_):
                errs.append(f"{where}: leading dash")
            if ("\n" in x or "\r" in x) and not s.get("multiline"):
                errs.append(f"{where}: line break")
            if "pattern" in sch_ and not re.fullmatch(sch_["pattern"], x):
                errs.append(f"{where}: pattern (whole value)")
            if "within" in s:
                base = os.path.realpath(os.path.join(workdir, s["within"]))
                rp = os.path.realpath(os.path.join(workdir, x))
                if not (rp == base or rp.startswith(base + os.sep)):
                    errs.append(f"{where}: outside within")
        if isinstance(v, str):
            chk(v, name, s)
        elif isinstance(v, list):
            it = s.get("items", {}) if isinstance(s.get("items"), dict) else {}
            for i, x in enumerate(v):
                chk(x, f"{name}[{i}]", it)
    return errs


def read_outputs(path):
    out = {}
    if not os.path.exists(path): return out
    lines = open(path, errors="replace").read().split("\n")
    i = 0
    while i < len(lines):
        l = lines[i]
        m = re.match(r"^([A-Za-z_][A-Za-z0-9_]*)<<(.*)$", l)
        if m:
            k, d = m.group(1), m.group(2); buf = []; i += 1
            while i < len(lines) and lines[i] != d: buf.append(lines[i]); i += 1
            out[k] = "\n".join(buf)
        elif "=" in l:
            k, v = l.split("=", 1)
            if re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", k): out[k] = v
        i += 1
    return out


def run(yfile, jfile, verbose=False):
    exp = yaml.safe_load(open(yfile))
    spec = json.load(open(jfile)) if jfile else {"args": {}}
    args = dict(spec.get("args", {}))
    base = tempfile.mkdtemp(prefix="r3-")
    rundir = os.path.join(base, "run"); workdir = os.path.join(base, "wd"); home = os.path.join(base, "home")
    for d in (rundir + "/inputs", rundir + "/steps", rundir + "/tmp", workdir, home):
        os.makedirs(d)
    errs = validate(exp, args, workdir)
    if errs:
        shutil.rmtree(base, ignore_errors=True)
        return {"marker": False, "leak": False, "invalid": errs, "out": ""}
    vals = {}
    for name, sch in (exp.get("args") or {}).items():
        if name in args: v = args[name]
        elif "default" in sch: v = sch["default"]
        else: continue
        if sch.get("contentEncoding") == "base64":
            p = os.path.join(rundir, "inputs", name + EXT.get(sch.get("contentMediaType", ""), ".bin"))
            open(p, "wb").write(base64.b64decode(v)); v = p
        vals[name] = text(v)
    secrets = {s: SECRET for s in (exp.get("secrets") or {})}
    ctx_args = {k: ("***" if (exp["args"][k].get("secret")) else v) for k, v in args.items()}
    json.dump({"version": 1, "tool": {"name": exp["name"]}, "arguments": ctx_args}, open(rundir + "/context.json", "w"))
    outs = {}; allout = ""; failed = False
    phases = [("steps", exp.get("steps") or []), ("on_failure", exp.get("on_failure") or []), ("finally", exp.get("finally") or [])]
    n = 0
    for phase, steps in phases:
        if phase == "on_failure" and not failed: continue
        for st in steps:
            if phase == "steps" and failed: break
            n += 1
            env = {"PATH": os.environ["PATH"], "HOME": home, "LANG": "C.UTF-8", "USER": "root", "LOGNAME": "root",
                   "TMPDIR": rundir + "/tmp", "HARBOR_RUN_ID": "r3", "HARBOR_RUN_DIR": rundir,
                   "HARBOR_TOOL": exp["name"], "HARBOR_STEP": st["name"],
                   "HARBOR_STEP_OUTPUT": f"{rundir}/steps/{n}-{st['name']}.output",
                   "HARBOR_PROGRESS": f"{rundir}/steps/{n}-{st['name']}.progress",
                   "HARBOR_CONTEXT": rundir + "/context.json", "HARBOR_OUTPUT": rundir + "/output.json",
                   "HARBOR_CALLER_PRINCIPAL": "local:root", "HARBOR_CALLER_TENANT": "local",
                   "HARBOR_CALLER_TRANSPORT": "cli", "HARBOR_CALLER_GROUPS": ""}
            for sn, so in outs.items():
                env[f"STEP_{sn}_EXIT"] = str(so["exit"]); env[f"STEP_{sn}_STATUS"] = "ok" if so["exit"] == 0 else "failed"
            cwd = workdir
            if st.get("cwd"): cwd = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(yfile)), st["cwd"]))
            senv = {k: str(v) for k, v in (st.get("env") or {}).items()}
            if "run" in st:
                pro = []
                for k, v in vals.items():
                    if f"ARG_{k}" not in senv: pro.append(f"ARG_{k}={ansi(v)}; ")
                for k, v in secrets.items(): pro.append(f"{k}={ansi(v)}; ")
                for sn, so in outs.items():
                    for k, v in so["outputs"].items(): pro.append(f"STEP_{sn}_{k}={ansi(v)}; ")
                script = "".join(pro) + render(st["run"], vals)
                env.update(senv)
                sf = f"{base}/script-{n}.sh"; open(sf, "w").write(script)
                cmd = ["bash", "--noprofile", "--norc", "-eo", "pipefail", sf]
            elif "argv" in st:
                cmd = [render(str(a), vals) for a in st["argv"]]
                if not any(PH.search(str(a)) for a in st["argv"]): env.update(secrets)
                env.update(senv)
            else:
                continue
            try:
                p = subprocess.run(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=10,
                                   start_new_session=True)
                o = p.stdout.decode(errors="replace") + p.stderr.decode(errors="replace"); rc = p.returncode
            except subprocess.TimeoutExpired:
                o = "TIMEOUT"; rc = 124
            except FileNotFoundError:
                o = "no such program"; rc = 127
            if "run" in st: os.unlink(sf)
            allout += o
            outs[st["name"]] = {"exit": rc, "outputs": read_outputs(env["HARBOR_STEP_OUTPUT"])}
            if verbose: print(f"[{phase}:{st['name']} rc={rc}]\n{o}")
            if rc != 0 and not st.get("continue_on_error") and phase == "steps": failed = True
    files = ""
    for root, _, fs in os.walk(rundir):
        for f in fs:
            try: files += open(os.path.join(root, f), errors="replace").read()
            except Exception: pass
    scrub = lambda s: s.replace(SECRET, "***")
    norm = lambda s: re.sub(r"[\\'\"\s]", "", scrub(s))
    res = {"marker": MARK in allout or MARK in files, "leak": SECRET in norm(allout) or SECRET in norm(files),
           "invalid": [], "out": allout}
    shutil.rmtree(base, ignore_errors=True)
    return res


if __name__ == "__main__":
    r = run(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 and not sys.argv[2].startswith("-") else None,
            verbose="-v" in sys.argv)
    print(json.dumps({"marker": r["marker"], "leak": r["leak"], "invalid": r["invalid"]}))
