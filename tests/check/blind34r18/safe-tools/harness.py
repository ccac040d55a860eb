#!/usr/bin/env python3
"""blind34r18 safe-set harness (adapted from tests/check/blind34r6/safe-tools/harness.py).

Runs each export of ../safe/ WITHOUT mcp-harbor, the way docs/exports.md describes
a call: the arguments are validated (JSON Schema, full-match `pattern`, no NUL,
no line break unless `multiline`, no leading `-` unless `leading_dash`/`enum`/
`const`, `within` by realpath); a fresh run directory is made; args, secrets and
earlier steps' outputs are plain shell variables assigned on the script's first
line with every byte `\\xHH`-quoted (never exported); `{{ args.x }}` is spliced
raw and `{{ args.x | shellquote }}` as `shlex.quote`; `argv:` elements are
substituted in place (an argv step with a placeholder gets no secret); each
`run:` script runs as `bash --noprofile --norc -eo pipefail SCRIPT` in the
fixture project (a copy per export, a git repository).

For every export: one benign run with the sample arguments of NNN-name.json
(`"HEADSHA"` replaced by the fixture's HEAD), then hostile runs where every
free argument (and every custom tool's argument, and every string output of
an agent step, which the harness cannot run) gets injection payloads that
pass validation. Reported: whether the marker HARBOR-PWNED-42 (only made by
a payload that ran) ever appears in output or files, whether the planted
secret appears in any form in the output, whether `bash -n` rejects a
rendered script, and how the benign run ended.

Differences from round six's harness: per-export sample files with
`__tools__` (custom tools' sample arguments) and `__agent__` (stand-in
outputs of agent steps); `bash -n` on every rendered script; the docs' step
order (first failure skips the rest unless `continue_on_error`, `on_failure:`
after a failure, `finally:` always, `retry:` up to 2 attempts); custom tools
run once per run; stubs print their argv and only the size of their stdin.
"""

import base64, codecs, itertools, json, os, re, shlex, shutil, subprocess, sys, tempfile
import yaml, jsonschema
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mock_world

HERE = os.path.dirname(os.path.abspath(__file__))
SAFE = os.path.join(os.path.dirname(HERE), "safe")
# Never touch the real home: every program sees folders under safe-tools/.
os.environ["HOME"] = os.path.join(HERE, "home")
os.environ["XDG_CONFIG_HOME"] = os.path.join(HERE, "xdg-config")
os.environ["XDG_STATE_HOME"] = os.path.join(HERE, "xdg-state")
os.environ["GIT_CONFIG_NOSYSTEM"] = "1"
os.environ["PATH"] = os.path.dirname(os.path.realpath(sys.executable)) + ":/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
for _d in ("home", "xdg-config", "xdg-state"):
    os.makedirs(os.path.join(HERE, _d), exist_ok=True)

SECRET = "s3cr3tT0ken99"
MARK = "HARBOR-PWNED-42"
PWNED_FILE = "/tmp/harbor-r18-pwned"
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
    f"$(echo {C} > {PWNED_FILE})",
    f"x\r\necho {C}",
    f"file://$(echo {C})",
    f"http://127.0.0.1:9/$(echo {C})",
    f":(top)$(echo {C})",
    f"%0a$(echo {C})",
    "@/etc/passwd",
    "<README.md",
    f"x,y=$(echo {C})",
    f"\\\"; process.stdout.write('HARBOR-PWNED-' + 6*7); \\\"",
    f"{{{{7*6}}}} {C}",
]
SAMPLES = [
    "main", "web-1", "1.4.2", "v1.4.2", "app", "api", "staging", "production", "2024-01-15",
    "2024-01-15T10:00:00Z", "abc1234", "ERROR", "error", "10m", "1h", "7d", "users", "orders",
    "UTC", "Europe/Berlin", "nginx", "nginx.service", "HEAD", "origin/main", "42", "1", "en_US",
    "logs/app.log", "src", "README.md", "app.log", "user@example.com", "v1/health", "health",
    "feature/login", "OPS-42", "alice", "a1b2c3d4e5f6", "10.0.0.1", "example.com", "x", "a b",
    "200", "GET", "web", "db", "config/app.yaml", "data/users.json", ".", "team-a", "us-east-1",
]

PASS_ENV_DEFAULTS = {
    "PGHOST": "127.0.0.1", "PGPORT": "5432", "PGDATABASE": "app", "PGUSER": "readonly",
    "KUBECONFIG": "/nonexistent/kubeconfig", "AWS_PROFILE": "readonly", "AWS_REGION": "us-east-1",
    "AWS_DEFAULT_REGION": "us-east-1", "DOCKER_HOST": "unix:///nonexistent/docker.sock",
    "REDIS_HOST": "127.0.0.1", "REDIS_PORT": "9", "VAULT_ADDR": "http://127.0.0.1:9",
    "CLOUDSDK_CORE_PROJECT": "demo-project",
}
UNREACHABLE = [
    "connection refused", "cannot connect to the docker daemon", "failed to connect to bus",
    "system has not been booted", "could not resolve", "no journal files", "unable to locate credentials",
    "unreachable", "couldn't get current server", "failed to connect", "no such host", "kubeconfig",
    "connect: ", "was refused", "host is down", "no credentialed accounts", "stub-", "error: connection",
    "could not connect", "credentials", "no configuration files", "backend initialization",
    "could not translate host name", "connection to server", "unable to connect", "temporary failure in name resolution",
    "name or service not known", "not been booted", "docker daemon", "you do not currently have an active account",
    "unable to resolve", "network is unreachable", "timed out", "localhost:8080",
]
FORCE_STUB = ["aws"]  # the machine's AWS CLI is v1
STUB_IF_MISSING = ["helm", "rg", "gh", "argocd", "vault", "aws", "go", "trivy", "promtool", "mysql"]


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


PH = re.compile(r"\{\{\s*args\.([A-Za-z_][A-Za-z0-9_]*)\s*(\|\s*(shellquote|data)\s*)?\}\}")


def render(s, vals):
    def rep(m):
        t = vals.get(m.group(1), "")
        return shlex.quote(t) if m.group(3) == "shellquote" else t

    return PH.sub(rep, s)


HARBOR_KW = {"multiline", "secret", "leading_dash", "disposition", "max_bytes", "within"}


def strip(s):
    if isinstance(s, dict):
        return {k: strip(v) for k, v in s.items() if k not in HARBOR_KW}
    if isinstance(s, list):
        return [strip(x) for x in s]
    return s


def valid(sch, v, workdir):
    sch = sch or {}
    try:
        jsonschema.Draft202012Validator(strip(sch)).validate(v)
    except jsonschema.ValidationError:
        return False
    items = []
    if isinstance(v, str):
        items = [(sch, v)]
    elif isinstance(v, list):
        it = sch.get("items", {}) if isinstance(sch.get("items"), dict) else {}
        items = [(it, x) for x in v if isinstance(x, str)]
    for s, x in items:
        if "\x00" in x:
            return False
        if ("\n" in x or "\r" in x) and not (sch.get("multiline") or s.get("multiline")):
            return False
        pat = s.get("pattern")
        if pat and not re.fullmatch(pat, x):
            return False
        exempt = any(k in s for k in ("enum", "const")) or any(k in sch for k in ("enum", "const"))
        if x.startswith("-") and not (sch.get("leading_dash") or s.get("leading_dash")) and not exempt:
            return False
        w = sch.get("within")
        if w is not None and not sch.get("contentEncoding"):
            base = os.path.realpath(os.path.join(workdir, w))
            r = os.path.realpath(os.path.join(workdir, x))
            if not (r == base or r.startswith(base + "/")):
                return False
    return True


def candidates(name, sch, workdir, samples):
    """(hostile values, benign value) of one argument"""
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
        benign = None
    hostile = []
    t = sch.get("type")
    if isinstance(t, list):
        t = [x for x in t if x != "null"][0]
    if "enum" in sch:
        hostile = list(sch["enum"])
    elif t == "boolean":
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
        hostile += [s for s in SAMPLES if valid(sch, s, workdir)][:4]
    return hostile, benign


def eval_if(expr, argv, outs):
    """a small evaluator of the docs' if: language (harness only)"""
    e = expr.replace("&&", " and ").replace("||", " or ")
    e = re.sub(r"!(?!=)", " not ", e)
    e = re.sub(r"\btrue\b", "True", e)
    e = re.sub(r"\bfalse\b", "False", e)
    e = re.sub(r"\bnull\b", "None", e)
    e = re.sub(r"\bargs\.([A-Za-z_][A-Za-z0-9_]*)", lambda m: f"A.get({m.group(1)!r})", e)
    e = re.sub(r"\bsteps\.([A-Za-z_][A-Za-z0-9_]*)\.outputs\.([A-Za-z_][A-Za-z0-9_]*)",
               lambda m: f"O({m.group(1)!r},{m.group(2)!r})", e)
    e = re.sub(r"\bsteps\.([A-Za-z_][A-Za-z0-9_]*)\.(ok|failed|skipped|timeout|status|exit_code)\b",
               lambda m: f"S({m.group(1)!r},{m.group(2)!r})", e)

    def S(n, f):
        o = outs.get(n)
        if o is None or o.get("skipped"):
            return {"skipped": True, "status": "skipped", "exit_code": None}.get(f, False)
        rc = o["exit"]
        return {"ok": rc == 0, "failed": rc != 0, "skipped": False, "timeout": rc == 124,
                "status": "ok" if rc == 0 else ("timeout" if rc == 124 else "failed"), "exit_code": rc}[f]

    def O(n, k):
        v = (outs.get(n) or {}).get("outputs", {}).get(k)
        if isinstance(v, str) and re.fullmatch(r"-?[0-9]+(\.[0-9]+)?", v):
            return float(v) if "." in v else int(v)
        return v

    class Cmp:
        pass

    try:
        return bool(eval(e, {"A": argv, "S": S, "O": O, "__builtins__": {}}))
    except TypeError:
        return False
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


ATT_EXT = {
    "text/plain": ".txt", "application/json": ".json", "text/csv": ".csv", "application/gzip": ".gz",
    "application/x-yaml": ".yaml", "application/yaml": ".yaml", "application/zip": ".zip",
    "application/x-tar": ".tar", "application/x-pem-file": ".pem", "application/vnd.sqlite3": ".db",
}


def arg_values(argdefs, args, rundir, sub):
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
            os.makedirs(os.path.join(rundir, sub), exist_ok=True)
            p = os.path.join(rundir, sub, name + ATT_EXT.get(sch.get("contentMediaType"), ".bin"))
            open(p, "wb").write(base64.b64decode(v))
            v = p
        vals[name] = text(v)
    return vals, typed


class Ctx:
    pass


MOCK = {"on": False, "http": None, "https": None}
MOCKED = ("curl", "wget", "kubectl", "helm", "docker", "psql", "pg_dump", "aws", "gcloud", "redis-cli", "systemctl")


def base_env(exp, rundir, stubdir, step_name, n):
    env = {
        "PATH": stubdir + ":" + os.environ["PATH"],
        "HOME": os.environ["HOME"],
        "USER": "harbor",
        "LOGNAME": "harbor",
        "LANG": "C.UTF-8",
        "TMPDIR": rundir + "/tmp",
        "HARBOR_RUN_ID": "r18",
        "HARBOR_RUN_DIR": rundir,
        "HARBOR_TOOL": exp["name"],
        "HARBOR_STEP": step_name,
        "HARBOR_STEP_OUTPUT": f"{rundir}/steps/{n}.out",
        "HARBOR_PROGRESS": f"{rundir}/steps/{n}.progress",
        "HARBOR_CONTEXT": rundir + "/context.json",
        "HARBOR_OUTPUT": rundir + "/output.json",
        "HARBOR_CALLER_PRINCIPAL": "local:r18",
        "HARBOR_CALLER_TENANT": "local",
        "HARBOR_CALLER_TRANSPORT": "cli",
        "HARBOR_CALLER_GROUPS": "",
        "XDG_CONFIG_HOME": os.environ["XDG_CONFIG_HOME"],
        "AWS_EC2_METADATA_DISABLED": "true",
        "CLOUDSDK_CONFIG": os.path.join(os.environ["XDG_CONFIG_HOME"], "gcloud"),
        "TF_CLI_CONFIG_FILE": "/dev/null",
    }
    port = MOCK["http"] if stubdir.endswith("mockstubs") else 9
    for pe in exp.get("pass_env") or []:
        if pe.endswith(("_URL", "_BASE", "_ENDPOINT", "_ADDR")):
            env.setdefault(pe, f"http://127.0.0.1:{port}")
        else:
            env.setdefault(pe, PASS_ENV_DEFAULTS.get(pe) or "/nonexistent/" + pe.lower())
    env["HARNESS_SECRET_LOG"] = os.path.join(os.path.dirname(rundir), os.path.basename(rundir) + ".secret-log")
    return env


def exec_step(ctx, st, n, vals, outs, secrets, cwd, extra_env=None, timeout=20):
    """run one run:/argv: step; returns (rc, output, bash_n_error)"""
    env = base_env(ctx.exp, ctx.rundir, ctx.stubdir, st.get("name", "tool"), n)
    if extra_env:
        env.update(extra_env)
    for sn, so in outs.items():
        env[f"STEP_{sn}_EXIT"] = "" if so.get("skipped") else str(so["exit"])
        env[f"STEP_{sn}_STATUS"] = "skipped" if so.get("skipped") else ("ok" if so["exit"] == 0 else "failed")
    bash_n = None
    sf = None
    if "run" in st:
        pro = [f"ARG_{k}={ansi(v)}; " for k, v in vals.items()]
        pro += [f"{k}={ansi(v)}; " for k, v in secrets.items()]
        for sn, so in outs.items():
            for k, v in so.get("outputs", {}).items():
                pro.append(f"STEP_{sn}_{k}={ansi(v)}; ")
        script = "".join(pro) + render(st["run"], vals)
        env.update({k: str(v) for k, v in (st.get("env") or {}).items()})
        fd, sf = tempfile.mkstemp(prefix="step-", suffix=".sh", dir=ctx.scriptdir)
        os.write(fd, script.encode())
        os.close(fd)
        chk = subprocess.run(["bash", "--noprofile", "--norc", "-n", sf], capture_output=True, text=True)
        if chk.returncode != 0 or chk.stderr.strip():
            bash_n = chk.stderr.strip()[-400:]
        cmd = ["bash", "--noprofile", "--norc", "-eo", "pipefail", sf]
    else:
        cmd = [render(str(a), vals) for a in st["argv"]]
        if not any(PH.search(str(a)) for a in st["argv"]):
            env.update(secrets)
        env.update({k: str(v) for k, v in (st.get("env") or {}).items()})
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                           timeout=timeout, start_new_session=True)
        o = p.stdout.decode(errors="replace") + p.stderr.decode(errors="replace")
        rc = p.returncode
    except subprocess.TimeoutExpired:
        o, rc = "TIMEOUT", 124
    except (FileNotFoundError, PermissionError) as e:
        o, rc = f"{e} (command not found)", 127
    if sf:
        os.unlink(sf)
    return rc, o, bash_n


def run_once(exp, args, tool_args, agent_outs, workdir, stubdir, timeout=20):
    ctx = Ctx()
    ctx.exp, ctx.stubdir = exp, stubdir
    ctx.rundir = tempfile.mkdtemp(prefix="r18run-")
    ctx.scriptdir = tempfile.mkdtemp(prefix="r18scr-")
    rundir = ctx.rundir
    for d in ("inputs", "steps", "tmp", "tools"):
        os.makedirs(os.path.join(rundir, d))
    vals, typed = arg_values(exp.get("args"), args, rundir, "inputs")
    secrets = {s: SECRET for s in (exp.get("secrets") or {})}
    json.dump({"arguments": typed, "tool": exp["name"]}, open(rundir + "/context.json", "w"))
    outs, allout, rcs, bash_errs = {}, "", [], []
    export_dir = os.path.join(workdir, "exports")

    def step_cwd(st):
        if st.get("cwd"):
            return os.path.normpath(os.path.join(export_dir, st["cwd"]))
        return workdir

    tools_ran = set()

    def run_tools(grant):
        nonlocal allout
        for tn in grant or []:
            if tn in tools_ran:
                continue
            tools_ran.add(tn)
            tdef = (exp.get("tools") or {}).get(tn)
            if not tdef:
                allout += f"\n[grant {tn}: an export, not run]\n"
                continue
            targs = dict((tool_args or {}).get(tn) or {})
            tv, _ = arg_values(tdef.get("args"), targs, rundir, "tools/inputs")
            missing = [a for a in (tdef.get("required") or []) if a not in tv]
            if missing:
                allout += f"\n[tool {tn}: no sample for {missing}]\n"
                rcs.append((f"tool:{tn}", "no-sample"))
                continue
            st = dict(tdef)
            st["name"] = tn
            rc, o, bn = exec_step(ctx, st, 900 + len(rcs), tv, {}, secrets, workdir, timeout=timeout)
            if bn:
                bash_errs.append((f"tool:{tn}", bn))
            allout += f"\n[tool {tn} rc={rc}]\n" + o
            rcs.append((f"tool:{tn}", rc))

    failed = False
    phases = [("steps", exp.get("steps") or []), ("on_failure", exp.get("on_failure") or []),
              ("finally", exp.get("finally") or [])]
    n = 0
    for phase, steps in phases:
        if phase == "on_failure" and not failed:
            continue
        for st in steps:
            n += 1
            name = st["name"]
            if phase == "steps" and failed and "if" not in st:
                outs[name] = {"skipped": True, "exit": None, "outputs": {}}
                continue
            if "if" in st:
                reads_steps = "steps." in st["if"]
                if phase == "steps" and failed and not reads_steps:
                    outs[name] = {"skipped": True, "exit": None, "outputs": {}}
                    continue
                if not eval_if(st["if"], typed, outs):
                    allout += f"\n[{name} skipped]\n"
                    outs[name] = {"skipped": True, "exit": None, "outputs": {}}
                    continue
            if "agent" in st:
                ag = st["agent"]
                run_tools(ag.get("tools"))
                o = dict((agent_outs or {}).get(name) or {})
                outs[name] = {"exit": 0, "outputs": {k: text(v) for k, v in o.items()}}
                rcs.append((name, "agent"))
                allout += f"\n[{name} agent: stand-in outputs {sorted(o)}]\n"
                continue
            attempts = min(int((st.get("retry") or {}).get("attempts", 1)), 2)
            for a in range(attempts):
                rc, o, bn = exec_step(ctx, st, n, vals, outs, secrets, step_cwd(st), timeout=timeout)
                if rc == 0:
                    break
            if bn:
                bash_errs.append((name, bn))
            if "fix" in st and rc != 0:
                run_tools((st["fix"] or {}).get("tools"))
            allout += f"\n[{name} rc={rc}]\n" + o
            rcs.append((name, rc))
            outs[name] = {"exit": rc, "outputs": read_outputs(f"{rundir}/steps/{n}.out")}
            if phase == "steps" and rc != 0 and not st.get("continue_on_error"):
                failed = True
    # custom tools the pipeline never reached (an earlier step failed) still
    # get their sample or hostile values once: a model could call them
    leftover = [t for t in (exp.get("tools") or {}) if t not in tools_ran]
    if leftover:
        allout += "\n[tools not reached by the pipeline, run once]\n"
        run_tools(leftover)
    files = ""
    for root, _, fs in itertools.chain(os.walk(rundir), os.walk(workdir)):
        if "/.git" in root:
            continue
        for f in fs:
            try:
                files += open(os.path.join(root, f), errors="replace").read()
            except Exception:
                pass
    slog = rundir + ".secret-log"
    delivered = sorted(set(open(slog).read().splitlines())) if os.path.exists(slog) else []
    if os.path.exists(slog):
        os.unlink(slog)
    shutil.rmtree(rundir, ignore_errors=True)
    shutil.rmtree(ctx.scriptdir, ignore_errors=True)
    return {"marker": MARK in allout or MARK in files, "leak": leaked(allout), "out": allout,
            "rcs": rcs, "bash_n": bash_errs, "delivered": delivered}


def leaked(out):
    """the planted secret in the output, verbatim or in a form a scrubber misses"""
    norm = re.sub(r"[\\'\"\s|,:;]", "", out)
    forms = [SECRET, SECRET[::-1], codecs.encode(SECRET, "rot13"),
             base64.b64encode(SECRET.encode()).decode()[:16], SECRET.encode().hex(), SECRET.upper()]
    return any(f in norm or f in out for f in forms)


def make_fixture(base):
    wd = os.path.join(base, "wd")
    shutil.copytree(os.path.join(HERE, "fixture"), wd, symlinks=True)
    genv = {**os.environ, "GIT_AUTHOR_NAME": "Dev", "GIT_AUTHOR_EMAIL": "dev@example.com",
            "GIT_COMMITTER_NAME": "Dev", "GIT_COMMITTER_EMAIL": "dev@example.com",
            "GIT_AUTHOR_DATE": "2024-01-15T10:00:00Z", "GIT_COMMITTER_DATE": "2024-01-15T10:00:00Z"}

    def g(*a, **kw):
        e = dict(genv)
        e.update(kw.get("env", {}))
        subprocess.run(["git", *a], cwd=wd, check=True, capture_output=True, env=e)

    import sqlite3
    db = sqlite3.connect(os.path.join(wd, "data", "app.db"))
    db.executescript("""
    create table users(id integer primary key, name text, email text, team text, created_at text);
    create table orders(id integer primary key, user_id integer, status text, total real, created_at text);
    """)
    for i in range(20):
        db.execute("insert into users values(?,?,?,?,?)", (i, f"user{i}", f"user{i}@example.com", ["team-a", "team-b"][i % 2], f"2024-01-{i+1:02d}"))
        db.execute("insert into orders values(?,?,?,?,?)", (100 + i, i % 7, ["shipped", "pending", "cancelled"][i % 3], 10.5 * i, f"2024-01-{i+1:02d}"))
    db.commit()
    db.close()
    # gzip'd rotated logs, a self-signed certificate, an old backup
    subprocess.run(["bash", "-c", "gzip -c logs/app.log > logs/app.log.1.gz; gzip -c logs/access.log > logs/access.log.1.gz"], cwd=wd, check=True)
    os.makedirs(os.path.join(wd, "certs"), exist_ok=True)
    for name, days in (("web", 60), ("api", 10)):
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "/dev/null",
                        "-out", f"certs/{name}.pem", "-days", str(days), "-subj", f"/CN={name}.example.com"],
                       cwd=wd, check=True, capture_output=True)
    os.makedirs(os.path.join(wd, "backups"), exist_ok=True)
    subprocess.run(["tar", "-czf", "backups/config-2024-01-14.tar.gz", "config"], cwd=wd, check=True)
    g("init", "-q", "-b", "main")
    g("add", "-A")
    g("commit", "-qm", "feat: initial import")
    g("tag", "-a", "v1.4.1", "-m", "release 1.4.1")
    with open(os.path.join(wd, "CHANGELOG.md"), "a") as f:
        f.write("## 1.4.3\n- unreleased\n")
    g("commit", "-qam", "docs: changelog for 1.4.3", env={"GIT_AUTHOR_NAME": "Alice", "GIT_AUTHOR_EMAIL": "alice@example.com",
                                                           "GIT_AUTHOR_DATE": "2024-01-20T09:00:00Z", "GIT_COMMITTER_DATE": "2024-01-20T09:00:00Z"})
    g("tag", "-a", "v1.4.2", "-m", "release 1.4.2", env={"GIT_COMMITTER_DATE": "2024-01-20T09:00:00Z"})
    g("branch", "release/1.4")
    with open(os.path.join(wd, "src", "app.py"), "a") as f:
        f.write("# tweak\n")
    g("commit", "-qam", "fix: handle empty config (OPS-42)", env={"GIT_AUTHOR_DATE": "2024-02-01T10:00:00Z", "GIT_COMMITTER_DATE": "2024-02-01T10:00:00Z"})
    g("checkout", "-q", "-b", "feature/login")
    with open(os.path.join(wd, "src", "util.py"), "a") as f:
        f.write("\n\ndef login(user):\n    return user  # TODO: check password\n")
    g("commit", "-qam", "feat(auth): login helper", env={"GIT_AUTHOR_NAME": "Bob", "GIT_AUTHOR_EMAIL": "bob@example.com",
                                                         "GIT_AUTHOR_DATE": "2024-02-03T10:00:00Z", "GIT_COMMITTER_DATE": "2024-02-03T10:00:00Z"})
    g("checkout", "-q", "main")
    with open(os.path.join(wd, "README.md"), "a") as f:
        f.write("\nUsage: make test\n")
    g("commit", "-qam", "update readme", env={"GIT_AUTHOR_DATE": "2024-02-05T10:00:00Z", "GIT_COMMITTER_DATE": "2024-02-05T10:00:00Z"})
    return wd


STUB = r"""#!/bin/sh
# stand-in: prints its argv (on stderr); of its stdin only the size, never the bytes
{ printf 'stub-%s argv:' "$(basename "$0")"; for a in "$@"; do printf ' [%s]' "$a"; done; echo
  if [ ! -t 0 ]; then printf 'stdin: %s bytes\n' "$(wc -c | tr -d ' ')"; fi; } >&2
"""


def stub_programs(exp, stubdir):
    names = set(STUB_IF_MISSING)
    for prog in list(exp.get("programs") or {}):
        if "/" not in prog:
            names.add(prog)
    for prog in names:
        if shutil.which(prog) and prog not in FORCE_STUB:
            continue
        p = os.path.join(stubdir, prog)
        open(p, "w").write(STUB)
        os.chmod(p, 0o755)


def check_file(yfile, max_runs=12, verbose=False):
    exp = yaml.safe_load(open(yfile))
    sfile = yfile[:-5] + ".json"
    spec = json.load(open(sfile)) if os.path.exists(sfile) else {}
    tool_samples = spec.pop("__tools__", {})
    agent_samples = spec.pop("__agent__", {})
    base = tempfile.mkdtemp(prefix="r18h-")
    try:
        wd = make_fixture(base)
        stubdir = os.path.join(base, "stubs")
        os.makedirs(stubdir)
        stub_programs(exp, stubdir)
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=wd, capture_output=True, text=True).stdout.strip()
        fix = lambda v: v.replace("HEADSHA", head[:12]) if isinstance(v, str) else v
        samples = {k: fix(v) for k, v in spec.items()}
        tool_samples = {tn: {k: fix(v) for k, v in (ta or {}).items()} for tn, ta in tool_samples.items()}
        argdefs = exp.get("args") or {}
        res = {"file": os.path.basename(yfile), "marker": False, "leak": False, "runs": 0, "bash_n": []}
        # the sample call must be valid for the schema
        bad = [a for a, v in samples.items() if a not in argdefs or not valid(argdefs[a], v, wd)]
        bad += [a for a in (exp.get("required") or []) if a not in samples and "default" not in (argdefs.get(a) or {})]
        for tn, targs in tool_samples.items():
            tdef = (exp.get("tools") or {}).get(tn) or {}
            tad = tdef.get("args") or {}
            bad += [f"{tn}.{a}" for a, v in targs.items() if a not in tad or not valid(tad[a], v, wd)]
        res["invalid_samples"] = bad
        hostile, benign = {}, {}
        for a, sch in argdefs.items():
            h, b = candidates(a, sch, wd, samples)
            hostile[a], benign[a] = h, b
        base_args = {a: v for a, v in benign.items() if v is not None}
        thostile = {}
        for tn, tdef in (exp.get("tools") or {}).items():
            for a, sch in (tdef.get("args") or {}).items():
                h, _ = candidates(a, sch, wd, tool_samples.get(tn, {}))
                thostile[(tn, a)] = h
        ahostile = {}
        for sn, o in agent_samples.items():
            for k, v in o.items():
                if isinstance(v, str):
                    ahostile[(sn, k)] = PAYLOADS
        res["free_args"] = sorted(
            [a for a, h in hostile.items() if h and not (argdefs[a] or {}).get("enum")
             and (argdefs[a] or {}).get("type") not in ("boolean", "integer", "number")]
            + [f"{tn}.{a}" for (tn, a), h in thostile.items() if h and not (exp["tools"][tn]["args"][a] or {}).get("enum")
               and (exp["tools"][tn]["args"][a] or {}).get("type") not in ("boolean", "integer", "number")]
            + [f"agent:{s}.{k}" for (s, k) in ahostile])
        r = run_once(exp, base_args, tool_samples, agent_samples, wd, stubdir)
        res["benign_rcs"] = r["rcs"]
        res["bash_n"] += r["bash_n"]
        nums = [rc for _, rc in r["rcs"] if isinstance(rc, int)]
        if "stub-" in r["out"]:
            res["benign_class"] = "STUBBED"
        elif all(rc == 0 for rc in nums) and not any(rc == "no-sample" for _, rc in r["rcs"]):
            res["benign_class"] = "BENIGN-OK"
        elif any(rc == 127 for rc in nums) or "command not found" in r["out"]:
            res["benign_class"] = "MISSING"
        elif any(u in r["out"].lower() for u in UNREACHABLE):
            res["benign_class"] = "UNREACHABLE"
        else:
            res["benign_class"] = "BENIGN-FAIL"
        res["benign_out"] = r["out"][-1500:]
        res["runs"] += 1
        if verbose:
            print(r["out"])
        texts = []
        for st in (exp.get("steps") or []) + (exp.get("on_failure") or []) + (exp.get("finally") or []) + list((exp.get("tools") or {}).values()):
            texts += [st.get("run") or ""] + [str(a) for a in st.get("argv") or []]
        uses = sorted({p for p in MOCKED if any(re.search(r"(^|[\s|;&(`$\\])" + re.escape(p) + r"\b", t) for t in texts)})
        res["mocked"] = uses
        run_dir_stubs = stubdir
        if uses and MOCK["on"]:
            mockdir = os.path.join(base, "mockstubs")
            os.makedirs(mockdir)
            stub_programs(exp, mockdir)
            mock_world.install(mockdir, MOCK["http"], MOCK["https"])
            run_dir_stubs = mockdir
            m = run_once(exp, base_args, tool_samples, agent_samples, wd, mockdir)
            res["runs"] += 1
            res["bash_n"] += m["bash_n"]
            res["mock_rcs"] = m["rcs"]
            mn = [rc for _, rc in m["rcs"] if isinstance(rc, int)]
            res["mock_class"] = "MOCK-OK" if all(rc == 0 for rc in mn) else "MOCK-FAIL"
            res["mock_out"] = m["out"][-1500:]
            res["delivered"] = m["delivered"]
            if verbose:
                print("--- in the mock world:")
                print(m["out"])
            if m["marker"] or m["leak"]:
                res["marker"] |= m["marker"]
                res["leak"] |= m["leak"]
                res["why"] = ("benign-mock", m["out"][-2000:])
        if os.path.exists(PWNED_FILE):
            res["marker"] = True
            res["why"] = ("pwned-file", "")
        if r["marker"] or r["leak"]:
            res["marker"] |= r["marker"]
            res["leak"] |= r["leak"]
            res["why"] = ("benign", r["out"][-2000:])
        n = max([len(h) for h in hostile.values()] + [len(h) for h in thostile.values()] + [len(h) for h in ahostile.values()] + [0])
        for i in range(min(n, max_runs)):
            args = dict(base_args)
            for a, h in hostile.items():
                if h:
                    args[a] = h[i % len(h)]
            targs = {tn: dict(v) for tn, v in tool_samples.items()}
            for (tn, a), h in thostile.items():
                if h:
                    targs.setdefault(tn, {})[a] = h[i % len(h)]
            aouts = {sn: dict(v) for sn, v in agent_samples.items()}
            for (sn, k), h in ahostile.items():
                aouts[sn][k] = h[(i * 3 + 1) % len(h)]
            r = run_once(exp, args, targs, aouts, wd, run_dir_stubs)
            res["runs"] += 1
            res["bash_n"] += r["bash_n"]
            if verbose:
                print(json.dumps(args), r["out"][-600:])
            if os.path.exists(PWNED_FILE):
                r["marker"] = True
            if r["marker"] or r["leak"]:
                res["marker"] |= r["marker"]
                res["leak"] |= r["leak"]
                res["why"] = (args, r["out"][-2000:])
        return res
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    import concurrent.futures as cf

    files = [f for f in sys.argv[1:] if not f.startswith("-")]
    if not files:
        files = sorted(os.path.join(SAFE, f) for f in os.listdir(SAFE) if f.endswith(".yaml"))
    verbose = "-v" in sys.argv
    max_runs = int(os.environ.get("HARNESS_MAX_RUNS", "12"))
    if "--no-mock" not in sys.argv:
        os.makedirs(os.path.join(HERE, "tmp"), exist_ok=True)
        MOCK["http"], MOCK["https"] = mock_world.start(os.path.join(HERE, "tmp"))
        MOCK["on"] = True
    results = []
    with cf.ThreadPoolExecutor(max_workers=1 if verbose else int(os.environ.get("HARNESS_JOBS", "4"))) as ex:
        for res in ex.map(lambda f: check_file(f, max_runs=max_runs, verbose=verbose), files):
            results.append(res)
            flag = "FIRED" if res["marker"] else ("LEAK" if res["leak"] else "ok")
            b = res.get("benign_class", "?")
            extra = ""
            if res["bash_n"]:
                extra += " BASH-N-ERR"
            if res["invalid_samples"]:
                extra += f" INVALID-SAMPLE={res['invalid_samples']}"
            if res.get("mock_class"):
                extra += f" {res['mock_class']}={res['mock_rcs']}"
                if res.get("delivered"):
                    extra += f" secret-delivered-to={res['delivered']}"
            print(f"{flag:5} {b:11} {res['file']:44} runs={res['runs']:3} benign={res['benign_rcs']} free={res['free_args']}{extra}", flush=True)
            if flag != "ok":
                print("   WHY:", json.dumps(res.get("why"))[:1500])
            if res["bash_n"]:
                print("   BASH-N:", res["bash_n"][:2])
            if b != "BENIGN-OK" and "-q" not in sys.argv:
                print("   BENIGN:", res.get("benign_out", "").replace("\n", "\n      ")[-700:])
            if res.get("mock_class") == "MOCK-FAIL" and "-q" not in sys.argv:
                print("   MOCK:", res.get("mock_out", "").replace("\n", "\n      ")[-700:])
    json.dump(results, open(os.path.join(HERE, "last-safe.json"), "w"), indent=1)
    bad = [r for r in results if r["marker"] or r["leak"]]
    cls, mcls = {}, {}
    for r in results:
        cls[r.get("benign_class")] = cls.get(r.get("benign_class"), 0) + 1
        if r.get("mock_class"):
            mcls[r["mock_class"]] = mcls.get(r["mock_class"], 0) + 1
    print(f"\n{len(results)} files, {len(bad)} fired/leaked, {sum(1 for r in results if r['bash_n'])} with bash -n errors, "
          f"{sum(1 for r in results if r['invalid_samples'])} with invalid samples, {sum(r['runs'] for r in results)} runs; benign: {cls}; "
          f"in the mock world: {mcls}")
    sys.exit(1 if bad else 0)
