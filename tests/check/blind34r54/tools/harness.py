#!/usr/bin/env python3
"""Verify blind34r54 ATTACKS (round 49: spec "caller" sets HARBOR_CALLER_PRINCIPAL/TENANT/GROUPS as an OAuth identity provider's claims would; round 45: each step's stdout/stderr also written to steps/<n>-<name>.stdout.log/.stderr.log as docs/exports.md says, custom tools' logs not there; `fix:` on a run: step simulated (fails, the spec's "fix_calls" run as the fix agent's tool calls, then the runner re-runs the step); copied from tests/check/blind34r20/tools/harness.py and adapted: GIT_CEILING_DIRECTORIES=/work, the marker also looked for in /tmp/harbor-r54-pwned, shared folders renamed r54; from round 20: path-form open redirects on the author host :18766 (/go/HOST/PORT/REST, /go307/HOST/PORT/REST), "served_with" exports whose {file:} secrets are planted (the server serves them beside the attack), a shared absolute folder /var/tmp/r54-app cleaned around every attack, the whole .json checked for the literal marker; from round 19: an open redirect on the author host :18766 (/go?to=URL), a TLS listener (caller :443, author :18443), a fake PostgreSQL server asking for a cleartext password (caller :18767), real PostgreSQL (:15432) and MariaDB (:13306) servers of the author with the planted password, pass_env values from the spec (server_env), {file:} secrets, "then" follow-up calls of other exports (shipped or attacks/then/), and "__tools__" model calls; earlier: blind34r7, r6) WITHOUT mcp-harbor; round 53: HARBOR_CALLER_PRINCIPAL/TENANT/GROUPS rendered as unexported shell variables (not in the environment; argv: steps get none), and a shared folder no run owns, /srv/r54-app, cleaned around every attack; round 52: spec "agent_outputs" (an agent step's final answer, its keys written as the step's outputs) and "author_files" (files of the author's repository added to the fixture before its first commit) (adapted from tests/check/blind34r5/tools/harness.py): render each export as
docs/exports.md describes (ARG_* / secrets / STEP_* outputs as unexported
shell variables on the first line, $'\\xHH'-quoted; placeholders raw or
shlex.quote'd; argv elements substituted in place), validate hostile values
the way the docs say calls are validated (JSON Schema, full-match pattern,
no newline unless multiline, no leading '-' unless leading_dash/enum/const,
within), run every step under `bash --noprofile --norc -eo pipefail`, and
report whether the marker (HARBOR-PWNED- and 6*7) ever appears (output or files) or the planted
secret leaks. Adapted from tests/check/blind34r2/tools/render.py."""

import base64, copy, itertools, json, os, re, shlex, shutil, subprocess, sys, tempfile
import yaml, jsonschema

HERE0 = os.path.dirname(os.path.abspath(__file__))
# Never touch the real home: every program (and git for the fixture) sees a fake one.
os.environ["HOME"] = os.path.join(HERE0, "home")
os.environ["XDG_CONFIG_HOME"] = os.path.join(HERE0, "xdg-config")
os.environ["XDG_STATE_HOME"] = os.path.join(HERE0, "xdg-state")
os.environ["GIT_CONFIG_NOSYSTEM"] = "1"
os.environ["GIT_CEILING_DIRECTORIES"] = "/work"
MARKER_FILE = "/tmp/harbor-r54-pwned"   # a payload may also write the marker here
os.environ["PATH"] = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
for _d in ("home", "xdg-config", "xdg-state"):
    os.makedirs(os.path.join(HERE0, _d), exist_ok=True)

HERE = os.path.dirname(os.path.abspath(__file__))
SECRET = "s3cr3tT0ken99"
MARK = ("HARBOR-PWNED-" + str(6 * 7))
C = "HARBOR-PWNED-$((6*7))"
PAYLOADS = [
    f"$(echo {C})",
    f";echo {C}",
    f"`echo {C}`",
    f"x' ; echo {C} ; '",
    f'"; echo {C}; "',
    f"--checkpoint-action=exec=echo {C}",
    "-e",
    f"-oProxyCommand=echo {C}",
    f"--upload-pack=echo {C}",
    f"|| echo {C}",
    f"a\necho {C}\n",
    f"x\n$(echo {C})",
    f"'); print('HARBOR-PWNED-'+str(6*7)) #",
    f'" + ("HARBOR-PWNED-" + (6*7|tostring)) + "',
    f'"; print "HARBOR-PWNED-" 6*7; "',
    f"1;e echo {C}",
    f"a[$(echo {C} >&2)]",
    f"' || (select 'HARBOR-PWNED-' || 6*7) || '",
    f"${{IFS}}$(echo${{IFS}}{C})",
    f"x -exec sh -c 'echo {C}' ;",
    f"%s%n$(echo {C})",
    f"/$(echo {C})",
    f"$(echo {C})/../x",
    f"*$(echo {C})*",
    f"\\$(echo {C})",
]
SAMPLES = [
    "main",
    "web-1",
    "1.4.2",
    "v1.4.2",
    "app",
    "api",
    "staging",
    "production",
    "2024-01-15",
    "2024-01-15T10:00:00Z",
    "abc1234",
    "ERROR",
    "error",
    "10m",
    "1h",
    "7d",
    "users",
    "orders",
    "UTC",
    "Europe/Berlin",
    "nginx",
    "nginx.service",
    "HEAD",
    "origin/main",
    "42",
    "1",
    "en_US",
    "logs/app.log",
    "src",
    "README.md",
    "app.log",
    "user@example.com",
    "v1/health",
    "health",
    "feature/login",
    "OPS-42",
    "alice",
    "a1b2c3d4e5f6",
    "10.0.0.1",
    "example.com",
    "x",
    "a b",
    "200",
    "GET",
    "web",
    "db",
    "config/app.yaml",
    "data/users.json",
    ".",
    "team-a",
    "us-east-1",
]


def load_samples():
    p = os.path.join(HERE, "samples.json")
    return json.load(open(p)) if os.path.exists(p) else {}


def text(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (dict, list)):
        return json.dumps(v, separators=(",", ":"))
    if v is None:
        return ""
    return v if isinstance(v, str) else json.dumps(v)


def ansi(s):
    return "$'" + "".join("\\x%02x" % b for b in s.encode()) + "'"


PH = re.compile(r"\{\{\s*args\.([A-Za-z_][A-Za-z0-9_]*)\s*(\|\s*(shellquote)\s*)?\}\}")


def render(s, vals):
    def rep(m):
        t = vals.get(m.group(1), "")
        return shlex.quote(t) if m.group(3) else t

    return PH.sub(rep, s)


HARBOR_KW = {"multiline", "secret", "leading_dash", "disposition", "max_bytes", "within"}


def strip(s):
    if isinstance(s, dict):
        return {k: strip(v) for k, v in s.items() if k not in HARBOR_KW}
    if isinstance(s, list):
        return [strip(x) for x in s]
    return s


def walk_strings(sch, v):
    """yield (schema, string) for every string value, for harbor's extra rules"""
    if isinstance(v, str):
        yield sch, v
    elif isinstance(v, list):
        it = sch.get("items", {}) if isinstance(sch, dict) else {}
        for x in v:
            if isinstance(x, str):
                yield {**it, "_parent": sch}, x
    elif isinstance(v, dict):
        pass


def valid(sch, v, workdir):
    try:
        jsonschema.Draft202012Validator(strip(sch)).validate(v)
    except jsonschema.ValidationError:
        return False

    def has(k, s):
        return isinstance(s, dict) and k in s

    for s, x in walk_strings(sch, v):
        parent = s.get("_parent", sch)
        if "\x00" in x:
            return False
        if ("\n" in x or "\r" in x) and not (sch.get("multiline") or parent.get("multiline")):
            return False
        pat = s.get("pattern") or (sch.get("pattern") if s is sch else None)
        if pat and not re.fullmatch(pat, x):
            return False
        exempt = any(has(k, s) for k in ("enum", "const")) or any(
            has(k, sch) for k in ("enum", "const")
        )
        if (
            x.startswith("-")
            and not (sch.get("leading_dash") or parent.get("leading_dash"))
            and not exempt
        ):
            return False
        w = sch.get("within") or parent.get("within")
        if w is not None and not sch.get("contentEncoding"):
            base = os.path.realpath(os.path.join(workdir, w))
            r = os.path.realpath(os.path.join(workdir, x))
            if not (r == base or r.startswith(base + "/")):
                return False
    return True


def candidates(name, sch, workdir, samples):
    """(hostile list, benign value)"""
    sch = sch or {}
    if sch.get("contentEncoding") == "base64":
        raw = base64.b64encode((f"line one\n$(echo {C})\n;echo {C}\n").encode()).decode()
        if name in samples:
            return [raw, samples[name]], samples[name]
        return [raw], raw
    if name in samples:
        benign = samples[name]
    elif "default" in sch:
        benign = sch["default"]
    elif "enum" in sch:
        benign = sch["enum"][0]
    elif "const" in sch:
        benign = sch["const"]
    else:
        t = sch.get("type")
        if isinstance(t, list):
            t = [x for x in t if x != "null"][0]
        if t == "integer":
            benign = max(sch.get("minimum", 1), min(5, sch.get("maximum", 5)))
        elif t == "number":
            benign = max(sch.get("minimum", 1), min(1.5, sch.get("maximum", 1.5)))
        elif t == "boolean":
            benign = True
        elif t == "array":
            it = sch.get("items", {})
            if "enum" in it:
                benign = it["enum"][:1]
            else:
                benign = [next((s for s in SAMPLES if valid(sch, [s], workdir)), "x")]
        elif t == "object":
            benign = {"key": "value"}
        else:
            benign = next((s for s in SAMPLES if valid(sch, s, workdir)), None)
    hostile = []
    t = sch.get("type")
    if "enum" in sch:
        hostile = [e for e in sch["enum"]]
    elif t == "boolean" or t == ["boolean"]:
        hostile = [True, False]
    elif t in ("integer", "number"):
        for n in (sch.get("minimum", 0), sch.get("maximum", 7), -1, 0, 3):
            if valid(sch, n, workdir):
                hostile.append(n)
    elif t == "array":
        for p in PAYLOADS:
            if valid(sch, [p, "b c"], workdir):
                hostile.append([p, "b c"])
            elif valid(sch, [p], workdir):
                hostile.append([p])
    elif t == "object":
        hostile = [{"k": p} for p in PAYLOADS[:6]]
    else:
        hostile = [p for p in PAYLOADS if valid(sch, p, workdir)]
        hostile += [s for s in SAMPLES if valid(sch, s, workdir)][:6]
    return hostile, benign


def read_outputs(path):
    out = {}
    if not os.path.exists(path):
        return out
    lines = open(path, errors="replace").read().split("\n")
    i = 0
    while i < len(lines):
        l = lines[i]
        m = re.match(r"^([A-Za-z_][A-Za-z0-9_]*)<<(.*)$", l)
        if m:
            k, d = m.group(1), m.group(2)
            buf = []
            i += 1
            while i < len(lines) and lines[i] != d:
                buf.append(lines[i])
                i += 1
            out[k] = "\n".join(buf)
        elif "=" in l:
            k, v = l.split("=", 1)
            if re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", k):
                out[k] = v
        i += 1
    return out



def _ctx(vals):
    return {"arguments": vals}


def run_script(script_text, vals, secrets, outs, env, cwd, rundir, n, name, timeout):
    pro = []
    for k, v in vals.items():
        pro.append(f"ARG_{k}={ansi(v)}; ")
    for k, v in secrets.items():
        pro.append(f"{k}={ansi(v)}; ")
    for sn, so in outs.items():
        for k, v in so["outputs"].items():
            pro.append(f"STEP_{sn}_{k}={ansi(v)}; ")
    # round 53: HARBOR_CALLER_PRINCIPAL/TENANT/GROUPS are no longer exported (docs/exports.md round fifty-two):
    # a run: step's bash has them as shell variables on the first line, like ARG_*
    env = dict(env)
    for k in CALLER_SHELL:
        if k in env:
            pro.append(f"{k}={ansi(env.pop(k))}; ")
    script = "".join(pro) + render(script_text, vals)
    sf = f"{rundir}/steps/{n}-{name}.sh"
    open(sf, "w").write(script)
    cmd = ["bash", "--noprofile", "--norc", "-eo", "pipefail", sf]
    try:
        return _exec(cmd, env, cwd, timeout, logbase=f"{rundir}/steps/{n}-{name}" if LOGS else None)
    finally:
        os.unlink(sf)


LOGS = True   # round 45: write each step's stdout/stderr to steps/<n>-<name>.stdout.log / .stderr.log (docs/exports.md)


def _write_logs(logbase, o, e):
    if logbase:
        open(logbase + ".stdout.log", "wb").write(o)
        open(logbase + ".stderr.log", "wb").write(e)


def run_tool_script(script_text, vals, secrets, env, cwd, rundir, n, name, timeout):
    """a custom tool's run: script; its logs go under tools/ (docs/agents.md), not steps/"""
    global LOGS
    LOGS = False
    try:
        o, rc = run_script(script_text, vals, secrets, {}, env, cwd, rundir, n, name, timeout)
    finally:
        LOGS = True
    return o, rc


def _exec(cmd, env, cwd, timeout, logbase=None):
    try:
        # round 42: as docs/exports.md says, when the step's leader exits, whatever it left in its process
        # group is stopped (the step runs in a process group of its own: start_new_session)
        p = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, start_new_session=True)
        try:
            o, e = p.communicate(timeout=timeout)
        finally:
            try:
                os.killpg(p.pid, 9)   # the group this harness made for the step, by its id
            except (ProcessLookupError, PermissionError):
                pass
        _write_logs(logbase, o, e)
        return o.decode(errors="replace") + e.decode(errors="replace"), p.returncode
    except subprocess.TimeoutExpired:
        return "TIMEOUT", 124
    except FileNotFoundError as e:
        return str(e), 127


def base_env(exp, stepname, rundir, n, stubdir):
    env = {
        "PATH": stubdir + ":" + os.environ["PATH"],
        "HOME": os.environ["HOME"],
        "USER": "harbor", "LOGNAME": "harbor", "LANG": "C.UTF-8",
        "TMPDIR": rundir + "/tmp",
        "GIT_CONFIG_NOSYSTEM": "1", "GIT_CEILING_DIRECTORIES": "/work",
        "XDG_CONFIG_HOME": os.environ["XDG_CONFIG_HOME"], "XDG_STATE_HOME": os.environ["XDG_STATE_HOME"],
        "HARBOR_RUN_ID": "r54", "HARBOR_RUN_DIR": rundir,
        "HARBOR_TOOL": exp["name"], "HARBOR_STEP": stepname,
        "HARBOR_STEP_OUTPUT": f"{rundir}/steps/{n}.out",
        "HARBOR_PROGRESS": f"{rundir}/steps/{n}.progress",
        "HARBOR_CONTEXT": rundir + "/context.json",
        "HARBOR_OUTPUT": rundir + "/output.json",
        "HARBOR_CALLER_PRINCIPAL": "local:r54", "HARBOR_CALLER_TENANT": "local",
        "HARBOR_CALLER_TRANSPORT": "cli", "HARBOR_CALLER_GROUPS": "",
    }
    # round 49: an OAuth caller's claims (spec "caller"): principal, tenant and groups as the identity
    # provider states them (docs/security.md section 13; class server, read as a caller's text by the checker)
    env.update(CALLER)
    for pe in exp.get("pass_env") or []:
        # the server's own value of a pass_env: name (spec "server_env"), else a dummy
        env.setdefault(pe, SERVER_ENV.get(pe, DEFAULT_SERVER_ENV.get(pe, "/nonexistent/" + pe.lower())))
    return env


SERVER_ENV = {}
CALLER_SHELL = ("HARBOR_CALLER_PRINCIPAL", "HARBOR_CALLER_TENANT", "HARBOR_CALLER_GROUPS")   # round 53: not exported
CALLER = {}   # round 49: spec "caller" (HARBOR_CALLER_PRINCIPAL/TENANT/GROUPS of an OAuth identity)
DEFAULT_SERVER_ENV = {}   # filled at start: SSL_CERT_FILE = the test CA (the company's internal CA)
CREATED_SECRET_FILES = set()   # /run/secrets files (and the folder) this run planted, removed at the end


def arg_values(argdefs, args, rundir):
    vals = {}
    for name, sch in (argdefs or {}).items():
        sch = sch or {}
        if name in args:
            v = args[name]
        elif "default" in sch:
            v = sch["default"]
        else:
            continue
        if sch.get("contentEncoding") == "base64":
            ext = {"text/plain": ".txt", "application/json": ".json", "text/csv": ".csv",
                   "application/gzip": ".gz", "application/x-tar": ".tar",
                   "application/zip": ".zip"}.get(sch.get("contentMediaType"), ".bin")
            p = os.path.join(rundir, "inputs", name + ext)
            open(p, "wb").write(base64.b64decode(v))
            v = p
        vals[name] = text(v)
    return vals


def run_once(exp, args, workdir, stubdir, model_calls=(), timeout=30):
    """run the export's steps in order, as docs/exports.md describes; an agent step is
    simulated by running the custom tools listed in model_calls (the model's calls)"""
    rundir = tempfile.mkdtemp(prefix="r54run-")
    for d in ("inputs", "steps", "tmp", "tools"):
        os.makedirs(os.path.join(rundir, d))
    vals = arg_values(exp.get("args"), args, rundir)
    secrets = {s: SECRET for s in (exp.get("secrets") or {})}
    # round 41: a {file:} secret outside /run/secrets is read where the steps run, at the run's start
    # (docs/exports.md "Secrets": one trailing newline stripped), as the server would read it
    for s, d in (exp.get("secrets") or {}).items():
        if isinstance(d, dict) and d.get("file") and not d["file"].startswith("/run/secrets/") and os.path.isfile(d["file"]):
            v = open(d["file"], errors="replace").read()
            secrets[s] = v[:-1] if v.endswith("\n") else v
    for s, d in (exp.get("secrets") or {}).items():
        # a {file: PATH} secret: the file exists on the server with the planted value
        if isinstance(d, dict) and d.get("file", "").startswith("/run/secrets/"):
            if not os.path.isdir("/run/secrets"):
                os.makedirs("/run/secrets")
                CREATED_SECRET_FILES.add("/run/secrets")
            open(d["file"], "w").write(SECRET + "\n")
            CREATED_SECRET_FILES.add(d["file"])
    json.dump(_ctx(vals), open(rundir + "/context.json", "w"))
    outs, allout, rcs = {}, "", []
    counter = [0]

    def cond(st, failed):
        c = st.get("if")
        if c is None:
            return not failed
        if "steps." not in c and failed:
            return False
        e = c.replace("&&", " and ").replace("||", " or ")
        e = re.sub(r"!(?!=)", " not ", e)
        def stp(m):
            n, f = m.group(1), m.group(2)
            so = outs.get(n)
            if f.startswith("outputs."):
                return repr((so or {}).get("outputs", {}).get(f[8:]))
            st_ = "skipped" if so is None else ("ok" if so["exit"] == 0 else "failed")
            return repr({"ok": st_ == "ok", "failed": st_ == "failed", "skipped": st_ == "skipped",
                         "timeout": False, "status": st_, "exit_code": None if so is None else so["exit"]}[f])
        e = re.sub(r"steps\.([A-Za-z_]\w*)\.((?:outputs\.)?[A-Za-z_]\w*)", stp, e)
        e = re.sub(r"args\.([A-Za-z_]\w*)", lambda m: repr(json.loads(vals[m.group(1)]) if m.group(1) in vals and vals[m.group(1)][:1] in "[{0123456789tfn-" else vals.get(m.group(1))), e)
        e = re.sub(r"\btrue\b", "True", re.sub(r"\bfalse\b", "False", re.sub(r"\bnull\b", "None", e)))
        try:
            return bool(eval(e, {"__builtins__": {}}, {}))
        except Exception:
            return False

    def do_step(st):
        counter[0] += 1
        n = counter[0]
        env = base_env(exp, st["name"], rundir, n, stubdir)
        for sn, so in outs.items():
            env[f"STEP_{sn}_EXIT"] = str(so["exit"])
            env[f"STEP_{sn}_STATUS"] = "ok" if so["exit"] == 0 else "failed"
        cwd = workdir
        if st.get("cwd"):
            cwd = os.path.normpath(os.path.join(workdir, "exports", st["cwd"]))
        if "run" in st:
            env.update({k: str(v) for k, v in (st.get("env") or {}).items()})
            o, rc = run_script(st["run"], vals, secrets, outs, env, cwd, rundir, n, st["name"], timeout)
            if rc != 0 and st.get("fix"):
                allowed = set((st["fix"] or {}).get("tools") or [])
                for i, call in enumerate(FIX_CALLS):
                    if call["tool"] not in allowed:
                        o += f"\n[fix call {call['tool']} NOT GRANTED]"
                        continue
                    tool = (exp.get("tools") or {})[call["tool"]]
                    margs = call.get("args", {})
                    full = dict(margs)
                    for a, sch in (tool.get("args") or {}).items():
                        if a not in full and "default" in (sch or {}):
                            full[a] = sch["default"]
                    bad = [a for a in full if not valid((tool.get("args") or {}).get(a) or {}, full[a], workdir)]
                    if bad:
                        o += f"\n[fix call {call['tool']} INVALID {bad}]"
                        continue
                    tvals = arg_values(tool.get("args"), margs, rundir)
                    tenv = base_env(exp, st["name"], rundir, f"{n}.fix{i}", stubdir)
                    to, trc = run_tool_script(tool["run"], tvals, secrets, tenv, workdir, rundir, f"{n}.fix{i}", call["tool"], timeout)
                    o += f"\n[fix call {call['tool']} rc={trc}]\n" + to
                # the runner's own re-run decides the step
                ro, rc = run_script(st["run"], vals, secrets, outs, env, cwd, rundir, n, st["name"], timeout)
                o += f"\n[re-run by runner rc={rc}]\n" + ro
        elif "argv" in st:
            cmd = [render(str(a), vals) for a in st["argv"]]
            for _k in CALLER_SHELL:
                env.pop(_k, None)   # round 53: an argv: step no longer gets them
            if not any(PH.search(str(a)) for a in st["argv"]):
                env.update(secrets)
            env.update({k: str(v) for k, v in (st.get("env") or {}).items()})
            o, rc = _exec(cmd, env, cwd, timeout, logbase=f"{rundir}/steps/{n}-{st['name']}")
        elif "agent" in st:
            o, rc = "", 0
            for i, call in enumerate(model_calls):
                tool = (exp.get("tools") or {})[call["tool"]]
                margs = call.get("args", {})
                full = dict(margs)
                for a, sch in (tool.get("args") or {}).items():
                    if a not in full and "default" in (sch or {}):
                        full[a] = sch["default"]
                bad = [a for a in full if not valid((tool.get("args") or {}).get(a) or {}, full[a], workdir)]
                if bad:
                    o += f"\n[model call {call['tool']} INVALID {bad}]"
                    continue
                tvals = arg_values(tool.get("args"), margs, rundir)
                tenv = base_env(exp, st["name"], rundir, f"{n}.{i}", stubdir)
                if "run" in tool:
                    to, trc = run_tool_script(tool["run"], tvals, secrets, tenv, workdir, rundir, f"{n}.{i}", call["tool"], timeout)
                else:
                    tcmd = [render(str(a), tvals) for a in tool["argv"]]
                    for _k in CALLER_SHELL:
                        tenv.pop(_k, None)
                    if not any(PH.search(str(a)) for a in tool["argv"]):
                        tenv.update(secrets)
                    to, trc = _exec(tcmd, tenv, workdir, timeout)
                o += f"\n[model call {call['tool']} rc={trc}]\n" + to
            # round 52: the model's final answer (spec "agent_outputs"): its top-level keys become the step's
            # outputs (docs/agents.md "The answer"), written where the runtime reads outputs back
            ans = AGENT_OUTPUTS.get(st["name"])
            if ans:
                with open(f"{rundir}/steps/{n}.out", "w") as fo:
                    for k, v in ans.items():
                        fo.write(f"{k}={v}\n")
        else:
            return 0
        nonlocal_out.append(f"\n[{st['name']} rc={rc}]\n" + o)
        rcs.append((st["name"], rc))
        outs[st["name"]] = {"exit": rc, "outputs": read_outputs(f"{rundir}/steps/{n}.out")}
        return rc

    nonlocal_out = []
    failed = False
    for st in exp.get("steps") or []:
        if not cond(st, failed):
            rcs.append((st["name"], "skipped"))
            continue
        if do_step(st) != 0 and not st.get("continue_on_error"):
            failed = True
    if failed:
        for st in exp.get("on_failure") or []:
            if cond(st, False):
                do_step(st)
    for st in exp.get("finally") or []:
        if cond(st, False):
            do_step(st)
    allout = "".join(nonlocal_out)
    # what reaches the caller: output, progress lines, step outputs, output.json
    visible = allout
    for root, _, fs in os.walk(os.path.join(rundir, "steps")):
        for f in fs:
            if f.endswith((".progress", ".out")):
                visible += open(os.path.join(root, f), errors="replace").read()
    if os.path.exists(rundir + "/output.json"):
        visible += open(rundir + "/output.json", errors="replace").read()
    files = ""
    for root, _, fs in itertools.chain(os.walk(rundir), os.walk(workdir), os.walk(os.environ["HOME"]), os.walk(os.environ["XDG_CONFIG_HOME"]), os.walk(SHARED), os.walk(SHARED_SHM), os.walk(SHARED_LOCK), os.walk(SHARED_SRV)):
        if "/.git" in root:
            continue
        for f in fs:
            try:
                files += open(os.path.join(root, f), errors="replace").read()
            except Exception:
                pass
    shutil.rmtree(rundir, ignore_errors=True)
    lk = leaked(visible)
    if "verbatim" in lk:
        # the run's scrubber masks the verbatim value of its own secrets; an export without secrets
        # (a sibling of the one that declares the {file:} secret) has nothing to scrub it with
        lk.remove("verbatim")
        if not secrets:
            lk.append("verbatim-unscrubbed")
    if os.path.exists(MARKER_FILE):
        files += open(MARKER_FILE, errors="replace").read()
    return {"marker": MARK in visible or MARK in files, "leak": lk, "out": visible, "rcs": rcs}


def _decoded_views(out):
    """texts a transform of the output may hide the secret in: base64 runs (gzip/tar inside),
    xxd dumps, od -c dumps"""
    import gzip, io, tarfile, zlib
    views = []
    runs = [m.group(0) for m in re.finditer(r"[A-Za-z0-9+/=\n]{24,}", out)]
    runs += [m.group(0) for m in re.finditer(r"[A-Za-z0-9+/=]{24,}", out)]
    for blob in runs:
        blob = blob.replace("\n", "")
        try:
            raw = base64.b64decode(blob + "=" * (-len(blob) % 4))
        except Exception:
            continue
        views.append(raw.decode("latin-1"))
        try:
            import zipfile
            z = zipfile.ZipFile(io.BytesIO(raw))
            views.extend(z.read(n).decode("latin-1") for n in z.namelist())
        except Exception:
            pass
        for unz in (lambda b: gzip.decompress(b), lambda b: zlib.decompress(b, 47)):
            try:
                u = unz(raw)
                views.append(u.decode("latin-1"))
            except Exception:
                pass
    # xxd: offset: hex groups  ascii
    hexbytes = "".join(re.findall(r"(?m)^[0-9a-f]{8}: ((?:[0-9a-f]{4} ?){1,8})", out)).replace(" ", "")
    try:
        views.append(bytes.fromhex(hexbytes).decode("latin-1"))
    except Exception:
        pass
    # od -c: offset then chars in 4-wide cells
    odc = ""
    for line in out.splitlines():
        m = re.match(r"^[0-7]{7} (.*)$", line)
        if m:
            cells = [m.group(1)[i:i + 4].strip() for i in range(0, len(m.group(1)), 4)]
            odc += "".join(c if len(c) == 1 else "" for c in cells)
    views.append(odc)
    return views


def leaked(out):
    hit = _leaked(out)
    if SECRET in out:
        hit.append("verbatim")
    for v in _decoded_views(out):
        if SECRET in v and "decoded" not in hit:
            hit.append("decoded")
    return hit


def _leaked(out):
    """the planted secret in a form a verbatim scrubber misses (verbatim alone is NOT a leak here)"""
    import codecs
    norm = re.sub(r"[\\'\"\s|,:;\[\]]", "", out)
    forms = [
        SECRET[::-1],
        codecs.encode(SECRET, "rot13"),
        base64.b64encode(SECRET.encode()).decode()[:16],
        base64.b32encode(SECRET.encode()).decode()[:16],
        SECRET.encode().hex(),
        SECRET.upper(),
    ]
    hit = [f for f in forms if f in norm or f in out]
    if SECRET not in out and SECRET.lower() in out.lower():
        hit.append("case-changed")
    # glob probes '??c*' that the export reports as matching: position k holds c
    pos = {}
    for m in re.finditer(r"(?<![?A-Za-z0-9_*])(\?*)([A-Za-z0-9_])\*(?![A-Za-z0-9_?*])", out):
        pos.setdefault(len(m.group(1)), m.group(2))
    if pos and "".join(pos.get(i, "") for i in range(max(pos) + 1)) == SECRET:
        hit.append("glob-probes")
    # one character at a time: present after removing separators but not verbatim in the raw text
    if SECRET in norm and SECRET not in out:
        hit.append("split")
    return hit

def load_then(name):
    for p in (os.path.join(HERE, "..", "attacks", "then", name + ".yaml"),
              os.path.join(HERE, "..", "..", "..", "..", "exports", name + ".yaml")):
        if os.path.exists(p):
            return yaml.safe_load(open(p))
    raise SystemExit("no export " + name)


def make_fixture(base):
    wd = os.path.join(base, "wd")
    shutil.copytree(os.path.join(HERE, "fixture"), wd, symlinks=True)
    # round 52: spec "author_files" adds (or replaces) files of the author's repository before its first commit
    for _rel, _txt in AUTHOR_FILES.items():
        os.makedirs(os.path.dirname(os.path.join(wd, _rel)) or wd, exist_ok=True)
        open(os.path.join(wd, _rel), "w").write(_txt)
    g = lambda *a: subprocess.run(
        ["git", *a],
        cwd=wd,
        check=True,
        capture_output=True,
        env={
            **os.environ,
            "GIT_AUTHOR_NAME": "Dev",
            "GIT_AUTHOR_EMAIL": "dev@example.com",
            "GIT_COMMITTER_NAME": "Dev",
            "GIT_COMMITTER_EMAIL": "dev@example.com",
            "GIT_AUTHOR_DATE": "2024-01-15T10:00:00Z",
            "GIT_COMMITTER_DATE": "2024-01-15T10:00:00Z",
        },
    )
    # the author's SQLite database (data/app.db)
    subprocess.run(["sqlite3", os.path.join(wd, "data", "app.db"),
                    "create table orders(id integer, item text, status text);"
                    "insert into orders values (1,'widget','open'),(2,'gadget','shipped'),(3,'gizmo','open');"], check=True)
    g("init", "-q", "-b", "main")
    g("add", "-A")
    g("commit", "-qm", "initial import")
    g("tag", "v1.4.2")
    with open(os.path.join(wd, "src", "app.py"), "a") as f:
        f.write("# tweak\n")
    g("commit", "-qam", "fix: handle empty config (OPS-42)")
    g("branch", "feature/login")
    g("branch", "release/1.4")
    return wd


def stub_programs(exp, stubdir):
    for prog in exp.get("programs") or {}:
        if "/" in prog:
            continue
        if shutil.which(prog):
            continue
        p = os.path.join(stubdir, prog)
        open(p, "w").write(
            '#!/bin/sh\nprintf \'%s argv:\' "$(basename "$0")"; for a in "$@"; do printf \' [%s]\' "$a"; done; echo\n'
            "if [ ! -t 0 ]; then head -c 2000 | sed 's/^/stdin: /'; fi\n"
        )
        os.chmod(p, 0o755)



def run_attack(yfile, verbose=False):
    exp = yaml.safe_load(open(yfile))
    spec = json.load(open(yfile[:-5] + ".json"))
    args = spec["args"]
    assert MARK not in json.dumps(spec), "marker literally in the spec"
    shutil.rmtree(SHARED, ignore_errors=True)
    shutil.rmtree(SHARED_SHM, ignore_errors=True)
    shutil.rmtree(SHARED_LOCK, ignore_errors=True)
    shutil.rmtree(SHARED_SRV, ignore_errors=True)
    if os.path.exists(MARKER_FILE):
        os.unlink(MARKER_FILE)
    # exports the server serves beside this one: their {file:} secrets exist on the server
    for sw in spec.get("served_with", []):
        plant_secrets(load_then(sw))
    base = tempfile.mkdtemp(prefix="r54a-")
    # HOME is per attack (some attacks write there): fresh copy each time
    shutil.rmtree(os.environ["HOME"], ignore_errors=True)
    os.makedirs(os.environ["HOME"])
    # round 42: XDG_CONFIG_HOME and XDG_STATE_HOME are per attack too (one attack writes git's config there)
    for _x in ("XDG_CONFIG_HOME", "XDG_STATE_HOME"):
        shutil.rmtree(os.environ[_x], ignore_errors=True)
        os.makedirs(os.environ[_x])
    global AUTHOR_FILES
    AUTHOR_FILES = spec.get("author_files", {})
    try:
        wd = make_fixture(base)
        stubdir = os.path.join(base, "stubs")
        os.makedirs(stubdir)
        stub_programs(exp, stubdir)
        argdefs = exp.get("args") or {}
        full = dict(args)
        for a, sch in argdefs.items():
            if a not in full and "default" in (sch or {}):
                full[a] = sch["default"]
        bad = [a for a in full if a in argdefs and not valid(argdefs[a] or {}, full[a], wd)]
        bad += [a for a in (exp.get("required") or []) if a not in full]
        bad += [a for a in args if a not in argdefs]
        if bad:
            return {"file": os.path.basename(yfile), "status": "INVALID-ARGS", "bad": bad, "class": spec.get("class")}
        global SERVER_ENV
        SERVER_ENV = spec.get("server_env", {})
        global CALLER
        CALLER = spec.get("caller", {})
        global FIX_CALLS
        FIX_CALLS = spec.get("fix_calls", [])
        global AGENT_OUTPUTS
        AGENT_OUTPUTS = spec.get("agent_outputs", {})
        r = run_once(exp, args, wd, stubdir, spec.get("__tools__", spec.get("model_calls", [])), timeout=40)
        # follow-up calls of other exports (shipped exports/ or attacks/then/), same working folder and HOME
        for t in spec.get("then", []):
            texp = load_then(t["export"])
            stub_programs(texp, stubdir)
            targs = t.get("args", {})
            tdefs = texp.get("args") or {}
            tfull = dict(targs)
            for a, sch in tdefs.items():
                if a not in tfull and "default" in (sch or {}):
                    tfull[a] = sch["default"]
            tbad = [a for a in tfull if a in tdefs and not valid(tdefs[a] or {}, tfull[a], wd)]
            tbad += [a for a in targs if a not in tdefs]
            if tbad:
                return {"file": os.path.basename(yfile), "status": "INVALID-ARGS", "bad": ["then:" + t["export"]] + tbad, "class": spec.get("class")}
            tr = run_once(texp, targs, wd, stubdir, t.get("__tools__", []), timeout=40)
            r["out"] += f"\n[then {t['export']}]" + tr["out"]
            r["marker"] = r["marker"] or tr["marker"]
            if tr["leak"]:
                # that run has no secret of its own: its scrubber masks nothing, verbatim included
                r["leak"] = r["leak"] + ["then:%s:%s" % (t["export"], ",".join(tr["leak"]))]
            r["rcs"] += [("then:" + t["export"], x) for x in tr["rcs"]]
        if verbose:
            print(r["out"])
        ex = [c for c in LISTENER.take() if SECRET in c]
        st = "FIRED" if r["marker"] else ("EXFIL" if ex else ("LEAK" if r["leak"] else "no"))
        if ex:
            r["leak"] = r["leak"] + ["listener: " + ex[0][:200]]
        return {"file": os.path.basename(yfile), "status": st, "class": spec.get("class"),
                "leak_forms": r["leak"], "rcs": r["rcs"], "tail": r["out"][-800:]}
    finally:
        shutil.rmtree(base, ignore_errors=True)
        shutil.rmtree(SHARED, ignore_errors=True)
        shutil.rmtree(SHARED_SHM, ignore_errors=True)
        shutil.rmtree(SHARED_LOCK, ignore_errors=True)
        shutil.rmtree(SHARED_SRV, ignore_errors=True)


SHARED_SHM = "/dev/shm/r54-app"  # shared memory, shared by every step (security.md section 8)
SHARED = "/var/tmp/r54-app"   # an absolute folder outside the working folder, shared by the exports of one server
SHARED_SRV = "/srv/r54-app"   # round 53: an absolute folder no run owns (not a temporary folder), cleaned like the others
SHARED_LOCK = "/run/lock/r54-app"   # round 41: /run/lock (also /var/run/lock, /var/lock), cleaned like the others


def plant_secrets(exp):
    for s, d in (exp.get("secrets") or {}).items():
        if isinstance(d, dict) and d.get("file", "").startswith("/run/secrets/"):
            if not os.path.isdir("/run/secrets"):
                os.makedirs("/run/secrets")
                CREATED_SECRET_FILES.add("/run/secrets")
            open(d["file"], "w").write(SECRET + "\n")
            CREATED_SECRET_FILES.add(d["file"])


class Listener:
    """local endpoints, 127.0.0.1 only. Caller side (a host the caller chooses; what they receive counts):
    HTTP :18765 and :8080, TLS :443, a fake PostgreSQL server on :18767 that asks for a cleartext
    password. Author side (never counted): HTTP :18766, which also has an open redirect
    (/go?to=URL answers 302 to URL, as the docs' threat model for redirect-following programs
    assumes of the author's API), and TLS :18443 (the author's GitHub Enterprise). HTTP answers 401
    (Basic) without credentials; every request is kept raw."""

    CALLER_PORTS = (18765, 8080, 443, 18767)

    def __init__(self, tlsdir):
        import socket, ssl, threading
        self.got = []
        self.ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self.ctx.load_cert_chain(os.path.join(tlsdir, "srv.pem"), os.path.join(tlsdir, "srv.key"))
        for port in (18765, 8080, 18766, 443, 18443, 18767):
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(("127.0.0.1", port))
            sock.listen(16)
            threading.Thread(target=self.loop, args=(sock, port), daemon=True).start()

    def loop(self, sock, port=None):
        import threading
        while True:
            c, _ = sock.accept()
            target = self.pg if port == 18767 else self.one
            threading.Thread(target=target, args=(c, port), daemon=True).start()

    def pg(self, c, port):
        """PostgreSQL wire protocol, just far enough for libpq to send its password"""
        import struct
        c.settimeout(3)
        data = b""
        try:
            def msg(n):
                b = b""
                while len(b) < n:
                    d = c.recv(n - len(b))
                    if not d:
                        raise EOFError
                    b += d
                return b
            ln = struct.unpack("!I", msg(4))[0]
            body = msg(ln - 4)
            if body[:4] == b"\x04\xd2\x16\x2f":           # SSLRequest / GSSENCRequest: no
                c.sendall(b"N")
                ln = struct.unpack("!I", msg(4))[0]
                body = msg(ln - 4)
            data += body
            c.sendall(b"R" + struct.pack("!II", 8, 3))    # AuthenticationCleartextPassword
            t = msg(1)
            ln = struct.unpack("!I", msg(4))[0]
            data += b" password-message: " + msg(ln - 4)
            err = b"SFATAL\x00C28P01\x00Mpassword authentication failed\x00\x00"
            c.sendall(b"E" + struct.pack("!I", len(err) + 4) + err)
        except Exception:
            pass
        finally:
            self.got.append("pg:%d " % port + data.decode("latin-1"))
            c.close()

    def one(self, c, port=None):
        c.settimeout(3)
        data = b""
        try:
            if port in (443, 18443):
                c = self.ctx.wrap_socket(c, server_side=True)
            while b"\r\n\r\n" not in data:
                d = c.recv(65536)
                if not d:
                    break
                data += d
            m = re.search(rb"(?i)content-length: *(\d+)", data)
            if m:
                need = int(m.group(1)) - len(data.split(b"\r\n\r\n", 1)[1])
                while need > 0:
                    d = c.recv(65536)
                    if not d:
                        break
                    data += d
                    need -= len(d)
            first = data.split(b"\r\n", 1)[0].decode("latin-1")
            rd = re.search(r"[?&]to=([^ &]+)", first)
            if port in (443, 18443):
                body = (b'{"data":{"repository":{"pullRequests":{"totalCount":1,"nodes":[{"number":7,"title":"fix login"}],'
                        b'"pageInfo":{"hasNextPage":false,"endCursor":""}},"pullRequest":{"number":7,"title":"fix login","state":"OPEN",'
                        b'"url":"https://127.0.0.1/o/r/pull/7","body":"","author":{"login":"dev"}},'
                        b'"releases":{"nodes":[],"pageInfo":{"hasNextPage":false,"endCursor":""}}}}}')
                c.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n" % len(body) + body)
                return
            pm = re.match(r"^[A-Z]+ /(go|go307)/([0-9.]+)/([0-9]+)(/[^ ]*)? HTTP", first)
            if port == 18766 and pm:
                loc = ("http://%s:%s%s" % (pm.group(2), pm.group(3), pm.group(4) or "/")).encode()
                code = b"307 Temporary Redirect" if pm.group(1) == "go307" else b"302 Found"
                c.sendall(b"HTTP/1.1 " + code + b"\r\nLocation: " + loc + b"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                return
            if port == 18766 and rd:
                import urllib.parse
                loc = urllib.parse.unquote(rd.group(1)).encode()
                code = b"307 Temporary Redirect" if b"code=307" in data.split(b"\r\n", 1)[0] else b"302 Found"
                c.sendall(b"HTTP/1.1 " + code + b"\r\nLocation: " + loc + b"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                return
            body = b'{"items": [], "status": "ok"}'
            if not re.search(rb"(?i)^(authorization|cookie):", data, re.M) and b"s3cr3t" not in data:
                c.sendall(b"HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Basic realm=x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                return
            c.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n" % len(body) + body)
        except Exception:
            pass
        finally:
            txt = data.decode("latin-1")
            for m in re.finditer(r"(?i)authorization: *basic +([A-Za-z0-9+/=]+)", txt):
                try:
                    txt += "\n[basic decoded: %s]" % base64.b64decode(m.group(1)).decode("latin-1")
                except Exception:
                    pass
            if port in self.CALLER_PORTS:   # :18766 and :18443 stand for the author's own hosts: not counted
                self.got.append("port %d: " % port + txt)
            try:
                c.close()
            except Exception:
                pass

    def take(self):
        import time
        time.sleep(0.3)
        g, self.got = self.got, []
        return g


def make_tls(d):
    """a test CA (standing for the company's internal CA, passed as the server's SSL_CERT_FILE) and a
    server certificate for 127.0.0.1"""
    os.makedirs(d, exist_ok=True)
    q = lambda *a: subprocess.run(a, cwd=d, check=True, capture_output=True)
    q("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "7",
      "-subj", "/CN=r54 test CA", "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign")
    q("openssl", "req", "-newkey", "rsa:2048", "-nodes", "-keyout", "srv.key", "-out", "srv.csr", "-subj", "/CN=127.0.0.1")
    open(os.path.join(d, "ext.cnf"), "w").write("subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n")
    q("openssl", "x509", "-req", "-in", "srv.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "srv.pem",
      "-days", "7", "-extfile", "ext.cnf")
    return os.path.join(d, "ca.pem")


class Services:
    """the author's database servers, on loopback, with the planted secret as the app user's password:
    PostgreSQL 15 on :15432 (role app, database app, table orders) and MariaDB on :13306 (user app,
    database app, table orders). Started only when an attack names psql or mysql; stopped by pid."""

    def __init__(self, need_pg, need_my):
        import time
        self.base = tempfile.mkdtemp(prefix="r54svc-")
        os.chmod(self.base, 0o755)
        self.procs = []
        if need_pg:
            pg = os.path.join(self.base, "pg")
            os.makedirs(pg)
            open(os.path.join(pg, "pw"), "w").write(SECRET + "\n")
            subprocess.run(["chown", "-R", "postgres", pg], check=True)
            bindir = "/usr/lib/postgresql/15/bin"
            run = lambda *a: subprocess.run(["runuser", "-u", "postgres", "--", "env", "HOME=" + pg, *a],
                                            check=True, capture_output=True)
            run(bindir + "/initdb", "-D", pg + "/data", "-A", "scram-sha-256", "--pwfile", pg + "/pw", "-U", "app")
            os.unlink(pg + "/pw")
            p = subprocess.Popen(["runuser", "-u", "postgres", "--", bindir + "/postgres", "-D", pg + "/data", "-p", "15432",
                                  "-k", pg, "-c", "listen_addresses=127.0.0.1"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            self.procs.append(p)
            for _ in range(50):
                if subprocess.run(["pg_isready", "-h", "127.0.0.1", "-p", "15432"], capture_output=True).returncode == 0:
                    break
                time.sleep(0.2)
            env = {**os.environ, "PGPASSWORD": SECRET}
            subprocess.run(["psql", "-h", "127.0.0.1", "-p", "15432", "-U", "app", "-d", "postgres", "-q", "-c", "create database app"], env=env, check=True, capture_output=True)
            subprocess.run(["psql", "-h", "127.0.0.1", "-p", "15432", "-U", "app", "-d", "app", "-q", "-c",
                            "create table orders(id int, item text, status text); insert into orders values (1,'widget','open'),(2,'gadget','shipped'),(3,'gizmo','open');"],
                           env=env, check=True, capture_output=True)
        if need_my:
            my = os.path.join(self.base, "my")
            os.makedirs(my)
            subprocess.run(["mariadb-install-db", "--datadir=" + my + "/data", "--user=root", "--auth-root-authentication-method=normal"],
                           check=True, capture_output=True)
            p = subprocess.Popen(["mariadbd", "--no-defaults", "--datadir=" + my + "/data", "--user=root", "--bind-address=127.0.0.1",
                                  "--port=13306", "--socket=" + my + "/sock", "--pid-file=" + my + "/pid"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            self.procs.append(p)
            for _ in range(60):
                if os.path.exists(my + "/sock"):
                    break
                time.sleep(0.2)
            time.sleep(0.5)
            subprocess.run(["mysql", "--no-defaults", "-uroot", "-S", my + "/sock", "-e",
                            "CREATE DATABASE app; CREATE USER 'app'@'127.0.0.1' IDENTIFIED BY '%s'; GRANT ALL ON app.* TO 'app'@'127.0.0.1';"
                            "CREATE TABLE app.orders (id int, item varchar(20), status varchar(20));"
                            "INSERT INTO app.orders VALUES (1,'widget','open'),(2,'gadget','shipped'),(3,'gizmo','open');" % SECRET],
                           check=True, capture_output=True)

    def stop(self):
        pidfile = os.path.join(self.base, "pg", "data", "postmaster.pid")
        if os.path.exists(pidfile):
            try:
                os.kill(int(open(pidfile).readline()), 15)   # the postgres server this harness started
            except (OSError, ValueError):
                pass
        for p in self.procs:
            # postgres runs under runuser: signal the server itself (its pid file), then runuser
            try:
                p.terminate()
                p.wait(10)
            except Exception:
                try:
                    p.kill()
                except Exception:
                    pass
        shutil.rmtree(self.base, ignore_errors=True)


LISTENER = None
AGENT_OUTPUTS = {}   # round 52: agent step name -> the model's final answer (spec "agent_outputs")
AUTHOR_FILES = {}    # round 52: files of the author's repository added to the fixture (spec "author_files")
FIX_CALLS = []   # round 45: the fix agent's model calls (spec "fix_calls")

if __name__ == "__main__":
    files = [f for f in sys.argv[1:] if not f.startswith("-")]
    texts = "".join(open(f).read() for f in files)
    tlsdir = tempfile.mkdtemp(prefix="r54tls-")
    DEFAULT_SERVER_ENV["SSL_CERT_FILE"] = make_tls(tlsdir)
    LISTENER = Listener(tlsdir)
    svc = Services("psql" in texts, "mysql" in texts)
    try:
        res = [run_attack(f, "-v" in sys.argv) for f in files]
    finally:
        svc.stop()
        shutil.rmtree(tlsdir, ignore_errors=True)
        for f in sorted(CREATED_SECRET_FILES, reverse=True):   # files first, then the folder if this run made it
            try:
                os.rmdir(f) if os.path.isdir(f) else os.unlink(f)
            except OSError:
                pass
    for r in res:
        print(f"{r['status']:12} {r['file']:48} {r.get('class', '')} {r.get('leak_forms') or ''} {r.get('rcs', r.get('bad'))}")
        if r["status"] not in ("FIRED", "LEAK", "EXFIL") and "-q" not in sys.argv:
            print("   ", (r.get("tail") or "")[-600:].replace("\n", "\n    "))
    json.dump(res, open(os.path.join(HERE, "last-attacks.json"), "w"), indent=1)
