#!/usr/bin/env python3
"""(blind34r17 copy of blind34r6's harness, adapted: per-file .json samples, bash -n, step order, custom tools)
(blind34r6 copy, adapted) Verify blind34r6 safe templates WITHOUT mcp-harbor: render each export as
docs/exports.md describes (ARG_* / secrets / STEP_* outputs as unexported
shell variables on the first line, $'\\xHH'-quoted; placeholders raw or
shlex.quote'd; argv elements substituted in place), validate hostile values
the way the docs say calls are validated (JSON Schema, full-match pattern,
no newline unless multiline, no leading '-' unless leading_dash/enum/const,
within), run every step under `bash --noprofile --norc -eo pipefail`, and
report whether HARBOR-PWNED-42 ever appears (output or files) or the planted
secret leaks. Adapted from tests/check/blind34r2/tools/render.py."""

import base64, copy, itertools, json, os, re, shlex, shutil, subprocess, sys, tempfile
import yaml, jsonschema

HERE0 = os.path.dirname(os.path.abspath(__file__))
# Never touch the real home: every program (and git for the fixture) sees a fake one.
os.environ["HOME"] = os.path.join(HERE0, "home")
os.environ["XDG_CONFIG_HOME"] = os.path.join(HERE0, "xdg-config")
os.environ["XDG_STATE_HOME"] = os.path.join(HERE0, "xdg-state")
os.environ["GIT_CONFIG_NOSYSTEM"] = "1"
os.environ["PATH"] = os.path.dirname(os.path.realpath(sys.executable)) + ":/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
for _d in ("home", "xdg-config", "xdg-state"):
    os.makedirs(os.path.join(HERE0, _d), exist_ok=True)

HERE = os.path.dirname(os.path.abspath(__file__))
SECRET = "s3cr3tT0ken99"
MARK = "HARBOR-PWNED-42"
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
    "../../../../etc/passwd",
    "/etc/passwd",
    "*",
    "~root/.ssh",
    "--help",
    "-rf",
    f"{{a,b}}$(echo {C})",
    f"$(echo {C} > /tmp/harbor-r17-pwned)",
    f"x\r\necho {C}",
    f"file://$(echo {C})",
    f"http://127.0.0.1:9/$(echo {C})",
    f":(top)$(echo {C})",
    f"%0a$(echo {C})",
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


PASS_ENV_DEFAULTS = {
    "PGHOST": "127.0.0.1", "PGPORT": "5432", "PGDATABASE": "app", "PGUSER": "readonly",
    "KUBECONFIG": "/nonexistent/kubeconfig", "AWS_PROFILE": "readonly", "AWS_REGION": "us-east-1",
    "AWS_DEFAULT_REGION": "us-east-1", "DOCKER_HOST": "unix:///nonexistent/docker.sock",
    "GRAFANA_URL": "http://127.0.0.1:9", "REGISTRY_HOST": "127.0.0.1:9",
}
UNREACHABLE = ["connection refused", "cannot connect to the docker daemon", "failed to connect to bus",
    "system has not been booted", "could not resolve", "no journal files", "unable to locate credentials",
    "unreachable", "couldn't get current server", "failed to connect", "no such host", "kubeconfig",
    "connect: ", "was refused", "host is down", "no credentialed accounts", "not found: helm", "stub-", "error: connection",
    "could not connect", "credentials", "could not translate host", "name or service not known", "could not read certificate", "temporary failure in name resolution", "terraform init", "no configuration files", "backend initialization"]
FORCE_STUB = ["aws"]  # the machine has AWS CLI v1, which lacks v2's --no-cli-pager
STUB_IF_MISSING = ["helm", "gh", "aws", "mysql", "mysqldump"]


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


def eval_if(expr, argv, outs):
    """tiny evaluator of the docs' if: language (harness only)"""
    e = expr.replace("&&", " and ").replace("||", " or ")
    e = re.sub(r"!(?!=)", " not ", e)
    e = re.sub(r"\btrue\b", "True", e)
    e = re.sub(r"\bfalse\b", "False", e)
    e = re.sub(r"\bnull\b", "None", e)
    e = re.sub(r"\bargs\.([A-Za-z_][A-Za-z0-9_]*)", lambda m: f"A.get({m.group(1)!r})", e)
    def st(m):
        n, f = m.group(1), m.group(2)
        return f"S({n!r},{f!r})"
    e = re.sub(r"\bsteps\.([A-Za-z_][A-Za-z0-9_]*)\.(ok|failed|skipped|timeout|status|exit_code)\b", st, e)
    e = re.sub(r"\bsteps\.([A-Za-z_][A-Za-z0-9_]*)\.outputs\.([A-Za-z_][A-Za-z0-9_]*)", lambda m: f"O({m.group(1)!r},{m.group(2)!r})", e)
    def S(n, f):
        o = outs.get(n)
        if o is None:
            return {"skipped": True, "status": "skipped"}.get(f, False if f != "exit_code" else None)
        rc = o["exit"]
        return {"ok": rc == 0, "failed": rc != 0, "skipped": False, "timeout": rc == 124,
                "status": "ok" if rc == 0 else "failed", "exit_code": rc}[f]
    def O(n, k):
        return (outs.get(n) or {}).get("outputs", {}).get(k)
    try:
        return bool(eval(e, {"A": argv, "S": S, "O": O, "__builtins__": {}}))
    except Exception as ex:
        print("IF-EVAL-ERROR", expr, ex, file=sys.stderr)
        return True


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



def _cls_steps(exp):
    return ([("steps", s) for s in exp.get("steps") or []] + [("on_failure", s) for s in exp.get("on_failure") or []]
            + [("finally", s) for s in exp.get("finally") or []])


def run_once(yfile, exp, args, workdir, stubdir, timeout=30, tool_args=None):
    rundir = tempfile.mkdtemp(prefix="r17run-")
    for d in ("inputs", "steps", "tmp", "tools"):
        os.makedirs(os.path.join(rundir, d))
    def prep_vals(argdefs, args):
        vals, typed = {}, {}
        for name, sch in (argdefs or {}).items():
            sch = sch or {}
            if name in args:
                v = args[name]
            elif "default" in sch:
                v = sch["default"]
            else:
                continue
            typed[name] = v
            if sch.get("contentEncoding") == "base64":
                ext = {"text/plain": ".txt", "application/json": ".json", "text/csv": ".csv",
                       "application/x-yaml": ".yaml", "application/yaml": ".yaml"}.get(sch.get("contentMediaType"), ".bin")
                p = os.path.join(rundir, "inputs", name + ext)
                open(p, "wb").write(base64.b64decode(v))
                v = p
            vals[name] = text(v)
        return vals, typed
    vals, vals_typed = prep_vals(exp.get("args"), args)
    secrets = {s: SECRET for s in (exp.get("secrets") or {})}
    json.dump({"arguments": vals}, open(rundir + "/context.json", "w"))
    outs = {}
    allout = ""
    rcs = []
    notes = []
    failed = False
    n = 0

    def base_env(stname, n):
        env = {
            "PATH": stubdir + ":" + os.environ["PATH"], "HOME": os.environ["HOME"], "USER": "harbor",
            "LOGNAME": "harbor", "LANG": "C.UTF-8", "TMPDIR": rundir + "/tmp", "HARBOR_RUN_ID": "r17",
            "HARBOR_RUN_DIR": rundir, "HARBOR_TOOL": exp["name"], "HARBOR_STEP": stname,
            "HARBOR_STEP_OUTPUT": f"{rundir}/steps/{n}.out", "HARBOR_PROGRESS": f"{rundir}/steps/{n}.progress",
            "HARBOR_CONTEXT": rundir + "/context.json", "HARBOR_OUTPUT": rundir + "/output.json",
            "HARBOR_CALLER_PRINCIPAL": "local:r17", "HARBOR_CALLER_TENANT": "local",
            "HARBOR_CALLER_TRANSPORT": "cli", "HARBOR_CALLER_GROUPS": "",
            "XDG_CONFIG_HOME": os.environ["XDG_CONFIG_HOME"], "XDG_STATE_HOME": os.environ["XDG_STATE_HOME"],
            "GIT_CONFIG_NOSYSTEM": "1",
        }
        for pe in exp.get("pass_env") or []:
            env.setdefault(pe, PASS_ENV_DEFAULTS.get(pe) or (
                "http://127.0.0.1:9" if pe.endswith(("_URL", "_BASE", "_ENDPOINT", "_HOST_URL", "_ADDR")) else "/nonexistent/" + pe.lower()))
        env["AWS_EC2_METADATA_DISABLED"] = "true"
        return env

    def exec_step(st, vals, n, env, is_tool=False):
        cwd = workdir
        if st.get("cwd"):
            cwd = os.path.normpath(os.path.join(workdir, "exports", st["cwd"]))
        if "run" in st:
            pro = [f"ARG_{k}={ansi(v)}; " for k, v in vals.items()]
            pro += [f"{k}={ansi(v)}; " for k, v in secrets.items()]
            if not is_tool:
                for sn, so in outs.items():
                    for k, v in so["outputs"].items():
                        pro.append(f"STEP_{sn}_{k}={ansi(v)}; ")
            script = "".join(pro) + render(st["run"], vals)
            env.update({k: str(v) for k, v in (st.get("env") or {}).items()})
            sf = f"{rundir}/steps/{n}.sh"
            open(sf, "w").write(script)
            chk = subprocess.run(["bash", "--noprofile", "--norc", "-n", sf], capture_output=True, text=True)
            if chk.returncode != 0 or chk.stderr.strip():
                notes.append("BASH-N-ERR " + st.get("name", "?") + ": " + chk.stderr.strip()[:300])
            cmd = ["bash", "--noprofile", "--norc", "-eo", "pipefail", sf]
        else:
            cmd = [render(str(a), vals) for a in st["argv"]]
            if not any(PH.search(str(a)) for a in st["argv"]):
                env.update(secrets)
            env.update({k: str(v) for k, v in (st.get("env") or {}).items()})
            sf = None
        try:
            p = subprocess.run(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                               timeout=min(timeout, st.get("timeout") or timeout), start_new_session=True)
            o = p.stdout.decode(errors="replace") + p.stderr.decode(errors="replace")
            rc = p.returncode
        except subprocess.TimeoutExpired:
            o, rc = "TIMEOUT", 124
        except (FileNotFoundError, PermissionError) as e:
            o, rc = str(e) + " command not found", 127
        if sf:
            os.unlink(sf)
        return rc, o

    for phase, st in _cls_steps(exp):
        n += 1
        if phase == "on_failure" and not failed:
            continue
        cond = st.get("if")
        if phase == "steps" and failed and not (cond and "steps." in cond):
            allout += f"\n[{st['name']} skipped after failure]\n"
            continue
        if cond and not eval_if(cond, vals_typed, outs):
            allout += f"\n[{st['name']} skipped]\n"
            outs[st["name"]] = None
            continue
        if "agent" in st:
            notes.append("agent:" + st["name"])
            allout += f"\n[{st['name']} agent step, not run]\n"
            continue
        env = base_env(st["name"], n)
        for sn, so in outs.items():
            if so is None:
                env[f"STEP_{sn}_STATUS"] = "skipped"; env[f"STEP_{sn}_EXIT"] = ""
                continue
            env[f"STEP_{sn}_EXIT"] = str(so["exit"])
            env[f"STEP_{sn}_STATUS"] = "ok" if so["exit"] == 0 else "failed"
        attempts = max(1, min(2, (st.get("retry") or {}).get("attempts", 1)))
        for _ in range(attempts):
            rc, o = exec_step(st, vals, n, env)
            if rc == 0:
                break
        allout += f"\n[{phase}:{st['name']} rc={rc}]\n" + o
        rcs.append((st["name"], rc))
        outs[st["name"]] = {"exit": rc, "outputs": read_outputs(f"{rundir}/steps/{n}.out")}
        if rc != 0 and phase == "steps" and not st.get("continue_on_error"):
            failed = True
    # custom tools: each once, with the model's sample values
    for tname, tdef in (exp.get("tools") or {}).items():
        n += 1
        targs = (tool_args or {}).get(tname, {})
        tvals, _ = prep_vals(tdef.get("args"), targs)
        env = base_env(exp["name"] + "." + tname, n)
        rc, o = exec_step(tdef, tvals, n, env, is_tool=True)
        allout += f"\n[tool:{tname} rc={rc}]\n" + o
        rcs.append(("tool:" + tname, rc))
    files = ""
    for root, _, fs in itertools.chain(os.walk(rundir), os.walk(workdir)):
        if "/.git" in root:
            continue
        for f in fs:
            try:
                files += open(os.path.join(root, f), errors="replace").read()
            except Exception:
                pass
    outj = None
    if os.path.exists(rundir + "/output.json"):
        try:
            outj = json.load(open(rundir + "/output.json"))
        except Exception as e:
            notes.append("OUTPUT-JSON-INVALID")
    if exp.get("output_schema") and outj is not None:
        try:
            jsonschema.validate(outj, exp["output_schema"])
        except jsonschema.ValidationError as e:
            notes.append("OUTPUT-SCHEMA-MISMATCH " + str(e.message)[:200])
    shutil.rmtree(rundir, ignore_errors=True)
    return {"marker": MARK in allout or MARK in files, "leak": leaked(allout, files), "out": allout,
            "rcs": rcs, "notes": notes, "failed": failed}


def leaked(out, files=""):
    """the planted secret in any form a verbatim scrubber misses (and verbatim)"""
    import codecs

    norm = re.sub(r"[\\'\"\s|,:;]", "", out)
    forms = [
        SECRET,
        SECRET[::-1],
        codecs.encode(SECRET, "rot13"),
        base64.b64encode(SECRET.encode()).decode()[:16],
        SECRET.encode().hex(),
        SECRET.upper(),
        SECRET.lower(),
    ]
    return any(
        f in norm or f in out for f in forms
    )  # run-directory files are scrubbed by the runtime: output only


def make_fixture(base):
    wd = os.path.join(base, "wd")
    shutil.copytree(os.path.join(HERE, "fixture"), wd, symlinks=True)
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
    import sqlite3
    db = sqlite3.connect(os.path.join(wd, "data", "app.db"))
    db.executescript("""
    create table users(id integer primary key, name text, email text, team text, created_at text);
    create table orders(id integer primary key, user_id integer, status text, total real, created_at text);
    """)
    for i in range(20):
        db.execute("insert into users values(?,?,?,?,?)", (i, f"user{i}", f"user{i}@example.com", ["team-a", "team-b"][i % 2], f"2024-01-{i+1:02d}"))
        db.execute("insert into orders values(?,?,?,?,?)", (100 + i, i % 7, ["shipped", "pending", "cancelled"][i % 3], 10.5 * i, f"2024-01-{i+1:02d}"))
    db.commit(); db.close()
    g("init", "-q", "-b", "main")
    g("add", "-A")
    g("commit", "-qm", "initial import")
    g("tag", "v1.4.2")
    with open(os.path.join(wd, "src", "app.py"), "a") as f:
        f.write("# tweak\n")
    g("commit", "-qam", "fix: handle empty config (OPS-42)")
    for msg, fn in [("feat(api): add order export endpoint", "src/app.py"), ("fix(db): close cursor on error", "src/util.py"),
                    ("docs: explain setup", "docs/index.md"), ("chore(deps): bump requests", "requirements.txt")]:
        with open(os.path.join(wd, fn), "a") as f:
            f.write("# " + msg + "\n")
        g("commit", "-qam", msg)
    g("branch", "feature/login")
    g("branch", "release/1.4")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", os.path.join(base, "web.key"),
                    "-out", os.path.join(wd, "certs", "web.pem"), "-days", "45", "-subj", "/CN=web.example.com"],
                   capture_output=True, check=True)
    return wd


def stub_programs(exp, stubdir):
    for prog in list(exp.get("programs") or {}) + STUB_IF_MISSING:
        if "/" in prog:
            continue
        if shutil.which(prog) and prog not in FORCE_STUB:
            continue
        p = os.path.join(stubdir, prog)
        open(p, "w").write(
            '#!/bin/sh\nprintf \'stub-%s argv:\' "$(basename "$0")"; for a in "$@"; do printf \' [%s]\' "$a"; done; echo\n'
            "if [ ! -t 0 ]; then head -c 2000 | sed 's/^/stdin: /'; fi\n"
        )
        os.chmod(p, 0o755)


def check_file(yfile, samples, max_runs=4, verbose=False):
    exp = yaml.safe_load(open(yfile))
    base = tempfile.mkdtemp(prefix="r17h-")
    try:
        wd = make_fixture(base)
        stubdir = os.path.join(base, "stubs")
        os.makedirs(stubdir)
        stub_programs(exp, stubdir)
        spec = json.load(open(yfile[:-5] + ".json")) if os.path.exists(yfile[:-5] + ".json") else {}
        tool_args = spec.pop("__tools__", {})
        _h = subprocess.run(["git", "rev-parse", "HEAD"], cwd=wd, capture_output=True, text=True).stdout.strip()
        tool_args = {t: {k: (v.replace("HEADSHA", _h[:12]) if isinstance(v, str) else v) for k, v in a.items()} for t, a in tool_args.items()}
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=wd, capture_output=True, text=True).stdout.strip()
        fs = {k: (v.replace("HEADSHA", head[:12]) if isinstance(v, str) else v) for k, v in spec.items()}
        argdefs = exp.get("args") or {}
        res = {"file": os.path.basename(yfile), "marker": False, "leak": False, "runs": 0}
        # the sample must be valid per the schema (and harbor's extra rules)
        full = dict(fs)
        for a, sch in argdefs.items():
            if a not in full and "default" in (sch or {}):
                full[a] = sch["default"]
        bad = [a for a in full if a not in argdefs or not valid(argdefs[a] or {}, full[a], wd)]
        bad += [a for a in (exp.get("required") or []) if a not in full]
        for tname, targs in tool_args.items():
            tdefs = ((exp.get("tools") or {}).get(tname) or {}).get("args") or {}
            bad += [f"{tname}.{a}" for a in targs if a not in tdefs or not valid(tdefs[a] or {}, targs[a], wd)]
        res["invalid_sample"] = bad
        hostile = {}
        for a, sch in argdefs.items():
            h, _ = candidates(a, sch, wd, {})
            hostile[a] = [x for x in h if (sch or {}).get("type") not in ("integer", "number", "boolean") and not (sch or {}).get("enum")]
        r = run_once(yfile, exp, fs, wd, stubdir, tool_args=tool_args)
        res["benign_rcs"] = r["rcs"]
        res["notes"] = r["notes"]
        low = r["out"].lower()
        if all(rc == 0 for _, rc in r["rcs"]):
            res["benign_class"] = "BENIGN-OK"
        elif any(rc == 127 for _, rc in r["rcs"]) or "command not found" in low:
            res["benign_class"] = "MISSING"
        elif any(u in low for u in UNREACHABLE):
            res["benign_class"] = "UNREACHABLE"
        else:
            res["benign_class"] = "BENIGN-FAIL"
        res["benign_out"] = r["out"][-1500:]
        _t = open(yfile).read()
        res["stubbed"] = sorted(x for x in os.listdir(stubdir) if re.search(r"\b" + re.escape(x) + r"\b", _t))
        res["runs"] += 1
        if verbose:
            print(r["out"])
        if r["marker"] or r["leak"]:
            res["marker"] |= r["marker"]; res["leak"] |= r["leak"]; res["why"] = ("benign", r["out"][-2000:])
        res["hostile_args"] = [a for a, h in hostile.items() if h]
        n = max([len(h) for h in hostile.values()] + [0])
        for i in range(min(n, max_runs)):
            args = dict(fs)
            for a, h in hostile.items():
                if h:
                    args[a] = h[(i * 7) % len(h)]
            r = run_once(yfile, exp, args, wd, stubdir, timeout=15, tool_args=tool_args)
            res["runs"] += 1
            if os.path.exists("/tmp/harbor-r17-pwned"):
                r["marker"] = True
            if r["marker"] or r["leak"]:
                res["marker"] |= r["marker"]; res["leak"] |= r["leak"]; res["why"] = (args, r["out"][-2000:])
        return res
    finally:
        shutil.rmtree(base, ignore_errors=True)


def run_attack(yfile, verbose=False):
    exp = yaml.safe_load(open(yfile))
    spec = json.load(open(yfile[:-5] + ".json"))
    args = spec["args"]
    assert MARK not in json.dumps(args), "payload marker literally in args"
    base = tempfile.mkdtemp(prefix="r5a-")
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
            return {"file": os.path.basename(yfile), "status": "INVALID-ARGS", "bad": bad}
        r = run_once(yfile, exp, args, wd, stubdir, timeout=40)
        if verbose:
            print(r["out"])
        st = "FIRED" if r["marker"] else ("LEAK" if r["leak"] else "no")
        return {
            "file": os.path.basename(yfile),
            "status": st,
            "class": spec.get("class"),
            "rcs": r["rcs"],
            "tail": r["out"][-800:],
        }
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__" and "--attack" in sys.argv:
    files = [f for f in sys.argv[1:] if not f.startswith("-")]
    res = [run_attack(f, "-v" in sys.argv) for f in files]
    for r in res:
        print(f"{r['status']:12} {r['file']:45} {r.get('class', '')} {r.get('rcs', r.get('bad'))}")
        if r["status"] not in ("FIRED", "LEAK") and "-q" not in sys.argv:
            print("   ", (r.get("tail") or "")[-500:].replace("\n", "\n    "))
    json.dump(res, open(os.path.join(HERE, "last-attacks.json"), "w"), indent=1)
    sys.exit(0)

if __name__ == "__main__":
    import concurrent.futures as cf

    files = sorted(f for f in sys.argv[1:] if not f.startswith("-"))
    verbose = "-v" in sys.argv
    results = []
    lines = []
    with cf.ThreadPoolExecutor(max_workers=1 if verbose else 6) as ex:
        for res in ex.map(lambda f: check_file(f, {}, verbose=verbose), files):
            results.append(res)
            flag = "FIRED" if res["marker"] else ("LEAK" if res["leak"] else "ok")
            b = res.get("benign_class", "?")
            line = (f"{flag:5} {b:11} {res['file']:42} runs={res['runs']:2} benign={res['benign_rcs']}"
                    f" hostile_args={res['hostile_args']}")
            if res["invalid_sample"]:
                line += f" INVALID-SAMPLE={res['invalid_sample']}"
            if res["notes"]:
                line += f" notes={res['notes']}"
            if res["stubbed"]:
                line += f" stubs={res['stubbed']}"
            print(line, flush=True)
            lines.append(line)
            if flag != "ok":
                print("   WHY:", json.dumps(res.get("why"))[:1500])
            if b != "BENIGN-OK" and "-q" not in sys.argv:
                print("   OUT:", res.get("benign_out", "").replace("\n", "\n      ")[-900:])
    json.dump(results, open(os.path.join(HERE, "last-safe.json"), "w"), indent=1)
    bad = [r for r in results if r["marker"] or r["leak"]]
    from collections import Counter
    summary = Counter(r["benign_class"] for r in results)
    print(f"\n{len(results)} files, {len(bad)} fired/leaked, classes={dict(summary)}")
    sys.exit(1 if bad else 0)
