#!/usr/bin/env python3
"""blind34r54 safe-set harness (blind34r53's, adapted: marker /tmp/harbor-r54s-pwned, prefixes r54s-sh-/r54s-run-;
stand-ins for round 54's in-house programs; more fixture commits for round 54's git-inspection exports.
Round 53's notes:
HARBOR_CALLER_PRINCIPAL/TENANT/GROUPS are no longer exported: a run: step gets them as shell variables on the
prologue line, an argv: step not at all (docs/exports.md, round fifty-two); stand-ins for round 53's in-house
programs; more commits in the fixture repository for round 53's git-inspection exports).

Runs each export WITHOUT mcp-harbor, emulating what docs/exports.md describes:
args, secrets and STEP_* outputs as unexported shell variables assigned on the
script's first line with every byte written \\xHH inside $'...'; placeholders
raw or shlex.quote'd; argv elements substituted in place (an argv step with a
placeholder gets no secret); values validated as the docs say (JSON Schema,
full-match pattern, no NUL, no line break unless multiline, no leading '-'
unless leading_dash/enum/const, within by realpath). Every rendered script is
first given to `bash -n`. Steps run under `bash --noprofile --norc -eo
pipefail` in a network namespace of their own (loopback only: nothing leaves
the machine), in a fresh copy of the fixture project (a git repository).

Order: steps (first failure without continue_on_error skips the rest),
on_failure only after a failure, finally always; retry: up to 2 attempts;
if: by a tiny evaluator. Custom tools (`tools:`) run once per run with the
model's sample values ("__tools__" in the sample file) and, in hostile runs,
with the same payloads as caller args. Agent steps and fix: are not run.

Reports per file whether HARBOR-PWNED-42 ever appeared (output or files of
the run and project) and whether the planted secret leaked into output.
"""

import base64, codecs, itertools, json, os, re, shlex, shutil, subprocess, sys, tempfile, time
import yaml, jsonschema

HERE = os.path.dirname(os.path.abspath(__file__))
os.environ["HOME"] = os.path.join(HERE, "home")
os.environ["XDG_CONFIG_HOME"] = os.path.join(HERE, "xdg-config")
os.environ["XDG_STATE_HOME"] = os.path.join(HERE, "xdg-state")
os.environ["GIT_CONFIG_NOSYSTEM"] = "1"
os.environ["GIT_CEILING_DIRECTORIES"] = "/work"
# The harness's own Python first (it has PyYAML, jsonschema and pytest, like a project's environment would).
os.environ["PATH"] = (
    os.path.dirname(os.path.realpath(sys.executable))
    + ":/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
)
for _d in ("home", "xdg-config", "xdg-state"):
    os.makedirs(os.path.join(HERE, _d), exist_ok=True)

SECRET = "s3cr3tT0ken99"
# round 52: shell variables of a run: step's bash, not exported; an argv: step does not get them
CALLER_SHELL = {
    "HARBOR_CALLER_PRINCIPAL": "local:r54",
    "HARBOR_CALLER_TENANT": "local",
    "HARBOR_CALLER_GROUPS": "",
}
MARK = "HARBOR-PWNED-42"
C = "HARBOR-PWNED-$((6*7))"
PWN_FILE = "/tmp/harbor-r54s-pwned"
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
    f"{{a,b}}$(echo {C})",
    f"$(echo {C} > {PWN_FILE})",
    f"x\r\necho {C}",
    f"file://$(echo {C})",
    f"http://127.0.0.1:9/$(echo {C})",
    f":(top)$(echo {C})",
    f"x:1:$(echo {C})",
    f"}}) or 1=1 --$(echo {C})",
    f'a"]; system("echo {C}"); ["',
    f"$(echo {C}).example.com",
    f"a@{{1}}$(echo {C})",
    f"e1\\\n$(echo {C})",
]
SAMPLES = [
    "main",
    "web-1",
    "1.4.2",
    "v1.4.2",
    "app",
    "api",
    "staging",
    "web",
    "2024-01-15",
    "2024-01-15T10:00:00Z",
    "ERROR",
    "error",
    "10m",
    "1h",
    "users",
    "orders",
    "UTC",
    "HEAD",
    "42",
    "1",
    "logs/app.log",
    "src",
    "README.md",
    "example.com",
    "x",
    "a b",
    "alice",
    "team-a",
    "us-east-1",
    "INC-1042",
    "abc1234",
    "web.example.com",
]

PASS_ENV_DEFAULTS = {
    "PGHOST": "127.0.0.1",
    "PGPORT": "5432",
    "PGDATABASE": "app",
    "PGUSER": "readonly",
    "KUBECONFIG": "/nonexistent/kubeconfig",
    "AWS_PROFILE": "readonly",
    "AWS_REGION": "us-east-1",
    "AWS_DEFAULT_REGION": "us-east-1",
    "DOCKER_HOST": "unix:///nonexistent/docker.sock",
    "HTTPS_PROXY": "http://127.0.0.1:9",
}
UNREACHABLE = [
    "connection refused",
    "cannot connect to the docker daemon",
    "failed to connect to bus",
    "system has not been booted",
    "could not resolve",
    "no journal files",
    "unable to locate credentials",
    "unreachable",
    "couldn't get current server",
    "failed to connect",
    "no such host",
    "kubeconfig",
    "connect: ",
    "was refused",
    "host is down",
    "no credentialed accounts",
    "error: connection",
    "could not connect",
    "credentials",
    "terraform init",
    "no configuration files",
    "backend initialization",
    "network is unreachable",
    "temporary failure in name resolution",
    "name or service not known",
    "is the docker daemon running",
    "curl: (6)",
    "curl: (7)",
    "curl: (28)",
    "unable to resolve",
    "connection to the server",
    "no route to host",
    "getaddrinfo",
    "name resolution",
    "failed to resolve",
    "dial tcp",
    "lookup ",
    "not running",
    "no such file or directory: '/run/systemd",
    "failed to get d-bus connection",
    "system has not been booted with systemd",
    "redis",
    "could not translate host name",
    "error connecting to",
    "timeout",
    "connection to server",
    "unknown mysql server host",
    "unknown server host",
    "can't connect",
    "no journal files",
    "-- no entries --",
]
# Programs absent on this machine (or, for aws, v1 instead of v2) are stand-ins that print their argv to
# stderr, say how many bytes of stdin they got (never the bytes), and print a canned answer from
# stub-out/<program>[.<first-arg>].out when there is one.
STUBS = [
    "duckdb",
    "dig",
    "restic",
    "promtool",
    "amtool",
    "helm",
    "gh",
    "trivy",
    "skopeo",
    "crane",
    "cosign",
    "syft",
    "kafka-consumer-groups",
    "logrotate",
    "crontab",
    "infracost",
    "ansible-playbook",
    "alembic",
    "aws",
    "glab",
    "vault",
    "tflint",
    "kcat",
    "rabbitmqadmin",
    "flyway",
    "mc",
    "stern",
    "argocd",
    "velero",
    "pg_basebackup_stub",
    "nomad",
    "consul",
    "ldapsearch",
    "ldapwhoami",
    "virsh",
    "qemu-img",
    "zfs",
    "zpool",
    "ceph",
    "lvs",
    "vgs",
    "pvs",
    "borg",
    "mtr",
    "traceroute",
    "nft",
    "iptables",
    "fastlane",
    "grype",
    "osv-scanner",
    "swaks",
    "logcli",
    "smartctl",
    "ansible-inventory",
    "ansible",
    "ansible-lint",
    "slsa-verifier",
    "postqueue",
    "opensearch-cli",
    "conntrack",
    "ethtool",
    "mlflow",
    "nats",
    "sqlcmd", "varnishstat", "kafka-topics",
    # added for round 28
    "ffprobe", "identify", "exiftool", "squeue", "sacct", "sinfo", "scontrol", "sshare", "sprio", "lfs",
    "sbatch", "mosquitto_sub", "mosquitto_pub", "rpm", "wg", "tailscale", "podman", "crictl", "ctr",
    "istioctl", "linkerd", "nats", "clickhouse-client", "snowsql", "bq", "pandoc", "mkdocs", "vale",
    "mlr", "csvstat", "xsv", "hledger", "ledger", "lighthouse", "osqueryi", "nginx", "apachectl",
    "named-checkzone", "kdig", "sshd",
    # added for round 30
    "argocd", "flux", "tkn", "argo", "dbt", "airflow", "jupyter", "great_expectations", "go", "dotnet",
    "bundle", "composer", "gradle", "mvn", "cargo", "jps", "jcmd", "jstat", "nvidia-smi", "ausearch",
    "aa-status", "getenforce", "sestatus", "fail2ban-client", "lynis", "sf", "crane", "skopeo", "7z",
    "xmllint", "spectral", "check-jsonschema", "pa11y", "reuse", "licensee", "cosign", "oras", "regctl",
    "kubeconform", "conftest", "pluto", "kubent", "sqlfluff", "spark-submit", "trino", "duckdb", "auditctl",
    # added for round 33
    "postqueue", "postconf", "postmap", "postsuper", "lpstat", "cancel", "pvesh", "govc", "openstack", "snmpget",
    "upsc", "ffmpeg", "fluent-bit", "vector", "mongosh", "rabbitmqctl", "rabbitmq-diagnostics", "chronyc",
    "ipmitool",
    # added for round 35
    "socat", "haproxy", "step", "smbclient", "samba-tool", "wbinfo", "net", "rpcclient", "aptly", "dnf", "reprepro",
    "nerdctl", "containerd", "perf", "bpftrace", "soda", "gdalinfo", "ogrinfo", "ogr2ogr", "gdalsrsinfo", "sphinx-build",
    "codespell", "semgrep", "shellcheck", "hadolint", "gitleaks", "checkov",
    # added for round 39
    "openvpn", "samtools", "bcftools", "nextflow", "ccache", "sccache", "bazel", "fleetctl", "telegraf", "rclone",
    "dnssec-dsfromkey", "gitlab-runner", "buildkite-agent", "influx", "cosign", "ausearch", "osqueryi",
    # added for round 41
    "deck", "k6", "chaos", "gcloud", "lighthouse",
    # added for round 44
    "pdfinfo", "pdffonts", "qpdf", "ncdump", "cdo", "papermill", "asterisk", "unity-build", "ros2",
    # added for round 47
    "mbpoll", "yaz-marcdump", "bagit.py", "tesseract", "az", "gcloud",
    # added for round 50
    "mysql", "seatwatch", "bmstat", "lblprint",
    # added for round 51
    "pctrend", "oltctl", "windlog", "rqctl", "antctl", "kegtrack",
    # added for round 52
    "liftctl", "tmsctl", "scalectl", "yardctl", "keybox", "zimsctl",
    # added for round 53
    "cellarctl", "dockctl", "ridectl", "dlxctl", "domectl", "rosterctl", "quotactl", "roasterctl", "elvmon", "slotctl",
    # added for round 54
    "sisctl", "kennelctl", "teectl", "hivectl", "stagectl", "campctl", "trapctl", "seedctl",
]
FORCE_STUB = ["aws", "mvn", "cargo", "jcmd", "jstat", "jps", "socat", "perf", "gcloud"]

STUB_SRC = r"""#!/bin/bash
p=$(basename "$0")
# the value of a credential option is not printed (the real programs do not echo it either)
{ printf 'stub-%s argv:' "$p"; prev=""; for a in "$@"; do
    case "$p:$prev" in
      ldapsearch:-w|ldapwhoami:-w|mongosh:--password|mongosh:-p|snmpget:-c|mosquitto_sub:-P|az:--password|az:-p) printf ' [<credential>]' ;;
      *) printf ' [%s]' "$a" ;;
    esac
    prev=$a
  done; echo; } >&2
if [ ! -t 0 ]; then n=$(wc -c | tr -d ' '); [ "$n" -gt 0 ] && echo "stub-$p stdin: $n bytes" >&2; fi
d=__OUT__
a=("$@")
for (( i = 0; i < ${#a[@]}; i++ )); do
  k="$p.${a[i]}.${a[i+1]-}"
  case "$k" in */*) continue ;; esac
  if [ -f "$d/$k.out" ]; then cat "$d/$k.out"; exit 0; fi
done
for (( i = 0; i < ${#a[@]}; i++ )); do
  k="$p.${a[i]}"
  case "$k" in */*) continue ;; esac
  if [ -f "$d/$k.out" ]; then cat "$d/$k.out"; exit 0; fi
done
if [ -f "$d/$p.out" ]; then cat "$d/$p.out"; fi
# ffmpeg writing its output operand into the run directory gets a few bytes there
if [ "$p" = ffmpeg ] && [ $# -gt 0 ] && [ -n "${HARBOR_RUN_DIR-}" ]; then
  last=${!#}
  if [ "${last#"$HARBOR_RUN_DIR"/}" != "$last" ]; then printf 'stub media\n' > "$last"; fi
fi
# papermill writes its output notebook (the last operand), jupyter nbconvert its --output-dir (round 44)
if [ "$p" = papermill ] && [ $# -gt 0 ] && [ -n "${HARBOR_RUN_DIR-}" ]; then
  last=${!#}
  if [ "${last#"$HARBOR_RUN_DIR"/}" != "$last" ]; then cat "$d/papermill.out" > "$last"; fi
fi
if [ "$p" = jupyter ]; then
  for (( i = 0; i < ${#a[@]}; i++ )); do
    if [ "${a[i]}" = --output-dir ] && [ -n "${HARBOR_RUN_DIR-}" ]; then mkdir -p "${a[i+1]}" && echo '<html></html>' > "${a[i+1]}/stub.html"; fi
  done
fi
# ogr2ogr writing its destination into the run directory gets a few bytes there
if [ "$p" = ogr2ogr ] && [ -n "${HARBOR_RUN_DIR-}" ]; then
  for a in "$@"; do
    if [ "${a#"$HARBOR_RUN_DIR"/}" != "$a" ]; then printf '{"type":"FeatureCollection","features":[]}\n' > "$a"; break; fi
  done
fi
# a program told to write a report into the run directory gets a canned one there
for (( i = 0; i < ${#a[@]}; i++ )); do
  o=""
  case "${a[i]}" in
    --output|-o|--output-path|--output-file) o=${a[i+1]-} ;;
    --output=*|--output-path=*|--output-file=*) o=${a[i]#*=} ;;
  esac
  if [ -n "$o" ] && [ -n "${HARBOR_RUN_DIR-}" ] && [ "${o#"$HARBOR_RUN_DIR"/}" != "$o" ]; then
    if [ -f "$d/$p.output.out" ]; then cat "$d/$p.output.out" > "$o"; else echo '{}' > "$o"; fi
  fi
done
exit 0
"""


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
        it = sch.get("items", {}) or {}
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
        if (
            x.startswith("-")
            and not (sch.get("leading_dash") or s.get("leading_dash"))
            and not exempt
        ):
            return False
        w = sch.get("within")
        if w is not None and not sch.get("contentEncoding"):
            base = os.path.realpath(os.path.join(workdir, w))
            r = os.path.realpath(os.path.join(workdir, x))
            if not (r == base or r.startswith(base + "/")):
                return False
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        if v != v or v in (float("inf"), float("-inf")):
            return False
    return True


def hostile_values(sch, workdir):
    sch = sch or {}
    t = sch.get("type")
    if isinstance(t, list):
        t = [x for x in t if x != "null"][0]
    if "enum" in sch:
        return list(sch["enum"])
    if "const" in sch:
        return [sch["const"]]
    if sch.get("contentEncoding") == "base64":
        return [
            base64.b64encode(f"line one\n$(echo {C})\n;echo {C}\n`echo {C}`\n".encode()).decode()
        ]
    if t == "boolean":
        return [True, False]
    if t in ("integer", "number"):
        return [
            n
            for n in (sch.get("minimum", 0), sch.get("maximum", 7), -1, 0, 3)
            if valid(sch, n, workdir)
        ]
    if t == "array":
        it = sch.get("items", {}) or {}
        if "enum" in it:
            return [it["enum"], it["enum"][:1]]
        out = []
        for p in PAYLOADS:
            if valid(sch, [p, "b c"], workdir):
                out.append([p, "b c"])
            elif valid(sch, [p], workdir):
                out.append([p])
        return out
    if t == "object":
        return [{"k": p} for p in PAYLOADS[:6]]
    return [p for p in PAYLOADS if valid(sch, p, workdir)] + [
        s for s in SAMPLES if valid(sch, s, workdir)
    ][:4]


def benign_value(name, sch, workdir, samples):
    sch = sch or {}
    if name in samples:
        return samples[name]
    if "default" in sch:
        return sch["default"]
    if "enum" in sch:
        return sch["enum"][0]
    if "const" in sch:
        return sch["const"]
    return None


def eval_if(expr, argv, outs):
    e = expr.replace("&&", " and ").replace("||", " or ")
    e = re.sub(r"!(?!=)", " not ", e)
    e = re.sub(r"\btrue\b", "True", e)
    e = re.sub(r"\bfalse\b", "False", e)
    e = re.sub(r"\bnull\b", "None", e)
    e = re.sub(r"\bargs\.([A-Za-z_][A-Za-z0-9_]*)", lambda m: f"A.get({m.group(1)!r})", e)
    e = re.sub(
        r"\bsteps\.([A-Za-z_][A-Za-z0-9_]*)\.outputs\.([A-Za-z_][A-Za-z0-9_]*)",
        lambda m: f"O({m.group(1)!r},{m.group(2)!r})",
        e,
    )
    e = re.sub(
        r"\bsteps\.([A-Za-z_][A-Za-z0-9_]*)\.(ok|failed|skipped|timeout|status|exit_code)\b",
        lambda m: f"S({m.group(1)!r},{m.group(2)!r})",
        e,
    )

    def S(n, f):
        o = outs.get(n)
        if o is None or o.get("skipped"):
            return {"skipped": True, "status": "skipped", "exit_code": None}.get(f, False)
        rc = o["exit"]
        return {
            "ok": rc == 0,
            "failed": rc != 0,
            "skipped": False,
            "timeout": rc == 124,
            "status": "ok" if rc == 0 else ("timeout" if rc == 124 else "failed"),
            "exit_code": rc,
        }[f]

    def O(n, k):
        return (outs.get(n) or {}).get("outputs", {}).get(k)

    class Cmp:
        pass

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


NETNS = ["unshare", "-rn", "sh", "-c", 'ip link set lo up 2>/dev/null; exec "$@"', "netns"]


def bash_n(script):
    p = subprocess.run(
        ["bash", "--noprofile", "--norc", "-n"], input=script.encode(), capture_output=True
    )
    return p.returncode, p.stderr.decode(errors="replace")


class Run:
    def __init__(self, exp, workdir, stubdir, timeout=20):
        self.exp, self.workdir, self.stubdir, self.timeout = exp, workdir, stubdir, timeout
        self.rundir = tempfile.mkdtemp(prefix="r54s-run-")
        for d in ("inputs", "steps", "tmp", "tools"):
            os.makedirs(os.path.join(self.rundir, d))
        self.secrets = {s: SECRET for s in (exp.get("secrets") or {})}
        self.out = ""
        self.bash_errors = []
        self.n = 0

    def values(self, argdefs, args):
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
                ext = {
                    "text/plain": ".txt",
                    "application/json": ".json",
                    "text/csv": ".csv",
                    "application/x-yaml": ".yaml",
                    "application/yaml": ".yaml",
                }.get(sch.get("contentMediaType"), ".bin")
                p = os.path.join(self.rundir, "inputs", name + ext)
                open(p, "wb").write(base64.b64decode(v))
                v = p
            vals[name] = text(v)
        return vals, typed

    def env(self, stepname, outs):
        self.n += 1
        n = self.n
        env = {
            "PATH": self.stubdir + ":" + os.environ["PATH"],
            "HOME": os.environ["HOME"],
            "USER": "harbor",
            "LOGNAME": "harbor",
            "LANG": "C.UTF-8",
            "TMPDIR": self.rundir + "/tmp",
            "HARBOR_RUN_ID": "r54",
            "HARBOR_RUN_DIR": self.rundir,
            "HARBOR_TOOL": self.exp["name"],
            "HARBOR_STEP": stepname,
            "HARBOR_STEP_OUTPUT": f"{self.rundir}/steps/{n}.out",
            "HARBOR_PROGRESS": f"{self.rundir}/steps/{n}.progress",
            "HARBOR_CONTEXT": self.rundir + "/context.json",
            "HARBOR_OUTPUT": self.rundir + "/output.json",
            "HARBOR_CALLER_TRANSPORT": "cli",
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CEILING_DIRECTORIES": os.path.dirname(self.workdir),
        }
        for pe in self.exp.get("pass_env") or []:
            env[pe] = PASS_ENV_DEFAULTS.get(pe) or (
                "http://127.0.0.1:9"
                if re.search(r"(URL|ADDR|ENDPOINT|BASE)$", pe)
                else "/nonexistent/" + pe.lower()
            )
        for sn, so in outs.items():
            env[f"STEP_{sn}_EXIT"] = "" if so.get("skipped") else str(so["exit"])
            env[f"STEP_{sn}_STATUS"] = (
                "skipped" if so.get("skipped") else ("ok" if so["exit"] == 0 else "failed")
            )
        return env, n

    def run_step(self, st, vals, outs, label):
        env, n = self.env(st["name"], outs)
        cwd = self.workdir
        if st.get("cwd"):
            cwd = os.path.normpath(os.path.join(self.workdir, "exports", st["cwd"]))
        if "run" in st:
            pro = "".join(f"{k}={ansi(v)}; " for k, v in CALLER_SHELL.items())
            pro += "".join(f"ARG_{k}={ansi(v)}; " for k, v in vals.items())
            pro += "".join(f"{k}={ansi(v)}; " for k, v in self.secrets.items())
            for sn, so in outs.items():
                for k, v in (so.get("outputs") or {}).items():
                    pro += f"STEP_{sn}_{k}={ansi(v)}; "
            script = pro + render(st["run"], vals)
            rc, err = bash_n(script)
            if rc != 0 or err.strip():
                self.bash_errors.append(f"{label}: {err.strip()[:300]}")
            env.update({k: str(v) for k, v in (st.get("env") or {}).items()})
            sf = f"{self.rundir}/steps/{n}.sh"
            open(sf, "w").write(script)
            cmd = ["bash", "--noprofile", "--norc", "-eo", "pipefail", sf]
        elif "argv" in st:
            cmd = [render(str(a), vals) for a in st["argv"]]
            if not any(PH.search(str(a)) for a in st["argv"]):
                env.update(self.secrets)
            env.update({k: str(v) for k, v in (st.get("env") or {}).items()})
        else:
            return None
        attempts = min(2, ((st.get("retry") or {}).get("attempts") or 1))
        for a in range(attempts):
            try:
                p = subprocess.run(
                    NETNS + cmd,
                    cwd=cwd,
                    env=env,
                    stdin=subprocess.DEVNULL,
                    capture_output=True,
                    timeout=min(int(st.get("timeout") or self.timeout), self.timeout),
                    start_new_session=True,
                )
                o = p.stdout.decode(errors="replace") + p.stderr.decode(errors="replace")
                rc = p.returncode
            except subprocess.TimeoutExpired:
                o, rc = "TIMEOUT", 124
            if rc == 0:
                break
        self.out += f"\n[{label} rc={rc}]\n" + o
        return {"exit": rc, "outputs": read_outputs(env["HARBOR_STEP_OUTPUT"])}

    def pipeline(self, args, tool_args):
        exp = self.exp
        vals, typed = self.values(exp.get("args"), args)
        json.dump({"arguments": typed}, open(self.rundir + "/context.json", "w"))
        outs, rcs, failed = {}, [], False
        for phase in ("steps", "on_failure", "finally"):
            if phase == "on_failure" and not failed:
                continue
            for st in exp.get(phase) or []:
                if phase == "steps" and failed and "if" not in st:
                    outs[st["name"]] = {"skipped": True, "exit": None, "outputs": {}}
                    continue
                if "if" in st:
                    reads_steps = "steps." in st["if"]
                    if phase == "steps" and failed and not reads_steps:
                        outs[st["name"]] = {"skipped": True, "exit": None, "outputs": {}}
                        continue
                    if not eval_if(st["if"], typed, outs):
                        outs[st["name"]] = {"skipped": True, "exit": None, "outputs": {}}
                        self.out += f"\n[{st['name']} skipped]\n"
                        continue
                if "agent" in st:
                    rcs.append((st["name"], "agent"))
                    outs[st["name"]] = {"skipped": True, "exit": None, "outputs": {}}
                    # the agent may call each custom tool: run each granted tool once
                    for tname in st["agent"].get("tools") or []:
                        self.run_tool(tname, tool_args, outs, rcs)
                    continue
                r = self.run_step(st, vals, outs, st["name"])
                if r is None:
                    continue
                outs[st["name"]] = r
                rcs.append((st["name"], r["exit"]))
                if phase == "steps" and r["exit"] != 0 and not st.get("continue_on_error"):
                    failed = True
                if st.get("fix"):
                    for tname in st["fix"].get("tools") or []:
                        self.run_tool(tname, tool_args, outs, rcs)
        return rcs

    def run_tool(self, tname, tool_args, outs, rcs):
        tool = (self.exp.get("tools") or {}).get(tname)
        if not tool:
            return
        targs = tool_args.get(tname, {})
        vals, _ = self.values(tool.get("args"), targs)
        st = {"name": tname, **{k: tool[k] for k in ("run", "argv") if k in tool}}
        r = self.run_step(st, vals, {}, "tool:" + tname)
        rcs.append(("tool:" + tname, r["exit"] if r else None))

    def files_text(self):
        s = ""
        for root, _, fs in itertools.chain(os.walk(self.rundir), os.walk(self.workdir)):
            if "/.git" in root:
                continue
            for f in fs:
                try:
                    s += open(os.path.join(root, f), errors="replace").read()
                except Exception:
                    pass
        return s

    def close(self):
        shutil.rmtree(self.rundir, ignore_errors=True)


def leaked(out):
    norm = re.sub(r"[\\'\"\s|,:;]", "", out)
    forms = [
        SECRET,
        SECRET[::-1],
        codecs.encode(SECRET, "rot13"),
        base64.b64encode(SECRET.encode()).decode()[:16],
        SECRET.encode().hex(),
        SECRET.upper(),
    ]
    return any(f in norm or f in out for f in forms)


def make_fixture(base):
    wd = os.path.join(base, "wd")
    shutil.copytree(os.path.join(HERE, "fixture"), wd, symlinks=True)
    genv = {
        **os.environ,
        "GIT_AUTHOR_NAME": "Dev",
        "GIT_AUTHOR_EMAIL": "dev@example.com",
        "GIT_COMMITTER_NAME": "Dev",
        "GIT_COMMITTER_EMAIL": "dev@example.com",
        "GIT_AUTHOR_DATE": "2024-01-15T10:00:00Z",
        "GIT_COMMITTER_DATE": "2024-01-15T10:00:00Z",
        "GIT_CEILING_DIRECTORIES": base,
    }
    g = lambda *a, **kw: subprocess.run(
        ["git", *a], cwd=wd, check=True, capture_output=True, env={**genv, **kw}
    )
    import sqlite3

    db = sqlite3.connect(os.path.join(wd, "data", "app.db"))
    db.executescript("""
    create table users(id integer primary key, name text, email text, team text, created_at text);
    create table orders(id integer primary key, user_id integer, status text, total real, created_at text);
    create table schema_migrations(version text primary key, applied_at text);
    insert into schema_migrations values('0001','2024-01-01T00:00:00Z'),('0002','2024-01-05T00:00:00Z'),('0003','2024-01-10T00:00:00Z');
    """)
    for i in range(20):
        db.execute(
            "insert into users values(?,?,?,?,?)",
            (
                i,
                f"user{i}",
                f"user{i}@example.com",
                ["team-a", "team-b"][i % 2],
                f"2024-01-{i + 1:02d}",
            ),
        )
        db.execute(
            "insert into orders values(?,?,?,?,?)",
            (
                100 + i,
                i % 7,
                ["shipped", "pending", "cancelled"][i % 3],
                10.5 * i,
                f"2024-01-{i + 1:02d}",
            ),
        )
    db.commit()
    db.close()
    bk = os.path.join(wd, "backups")
    os.makedirs(bk, exist_ok=True)
    shutil.copy(os.path.join(wd, "data", "app.db"), os.path.join(bk, "db-2024-01-15.sqlite"))
    for day in ("2024-01-14", "2024-01-15"):
        subprocess.run(
            [
                "tar",
                "-czf",
                os.path.join(bk, f"app-{day}.tar.gz"),
                "config",
                "data/report.csv",
                "data/users.json",
            ],
            cwd=wd,
            check=True,
        )
    subprocess.run("sha256sum -- *.tar.gz *.sqlite > SHA256SUMS", shell=True, cwd=bk, check=True)
    old = time.time() - 3 * 86400
    os.utime(os.path.join(bk, "app-2024-01-14.tar.gz"), (old, old))
    for n in (1, 2):
        p = os.path.join(wd, "logs", f"app.log.{n}")
        t = time.time() - (n + 2) * 86400
        os.utime(p, (t, t))
    g("init", "-q", "-b", "main")
    g("add", "-A")
    g("commit", "-qm", "initial import")
    g("tag", "-a", "v1.4.1", "-m", "release 1.4.1")
    g("tag", "-a", "relay-2024.01", "-m", "relay settings 2024.01")  # round 47
    with open(os.path.join(wd, "src", "util.py"), "a") as f:
        f.write("# perf: cache lookups\n")
    g(
        "commit",
        "-qam",
        "perf: cache lookups",
        GIT_AUTHOR_NAME="Alice",
        GIT_AUTHOR_EMAIL="alice@example.com",
        GIT_AUTHOR_DATE="2024-01-14T09:00:00Z",
        GIT_COMMITTER_DATE="2024-01-14T09:00:00Z",
    )
    g("tag", "-a", "v1.4.2", "-m", "release 1.4.2")
    with open(os.path.join(wd, "src", "app.py"), "a") as f:
        f.write("# tweak\n")
    g("commit", "-qam", "fix: handle empty config (OPS-42)")
    with open(os.path.join(wd, "deploy", "envs", "staging.yaml"), "a") as f:
        f.write("# bump\n")
    g(
        "commit",
        "-qam",
        "feat(deploy): staging replicas",
        GIT_AUTHOR_NAME="Bob",
        GIT_AUTHOR_EMAIL="bob@example.com",
    )
    # round 47: a relay setting release and a listing price change
    with open(os.path.join(wd, "scada", "relays", "feeder-f101.set"), "w") as f:
        f.write("[51P]\npickup = 660\ntime_dial = 3.0\ncurve = U3\n")
    g("commit", "-qam", "relay: raise F101 pickup to 660 A", GIT_AUTHOR_NAME="Priya", GIT_AUTHOR_EMAIL="priya@example.com")
    g("tag", "-a", "relay-2024.02", "-m", "relay settings 2024.02")
    with open(os.path.join(wd, "realty", "listings", "L2024117.yaml"), "w") as f:
        f.write("id: L2024117\naddress: 12 Maple Dr\nprice: 485000\nstatus: Active\n")
    g("commit", "-qam", "L2024117: price reduced", GIT_AUTHOR_NAME="Agent Kim", GIT_AUTHOR_EMAIL="kim@example.com")
    # round 51: a publish manifest committed with a note
    with open(os.path.join(wd, "vfx", "publish", "KESTREL", "SHT010_0020-lookdev-v004.yaml"), "w") as f:
        f.write("shot: SHT010_0020\ntask: lookdev\nversion: 4\n")
    g("add", "-A")
    g("commit", "-qm", "KESTREL SHT010_0020 lookdev v004: feather shader update", GIT_AUTHOR_NAME="Mia Bauer", GIT_AUTHOR_EMAIL="mbauer@example.com")
    # round 52: a ballot-style change committed with a note
    with open(os.path.join(wd, "elections", "ballots", "styles.yaml"), "a") as f:
        f.write("  BS-04: {precincts: [P-012], contests: [mayor, measure-a, council-3]}\n")
    g("commit", "-qam", "BS-04 split from BS-03 for P-012 (annexation)", GIT_AUTHOR_NAME="Rosa Diaz", GIT_AUTHOR_EMAIL="rdiaz@example.gov",
      GIT_AUTHOR_DATE="2024-02-01T10:00:00Z", GIT_COMMITTER_DATE="2024-02-01T10:00:00Z")
    # round 53: changes for the git-inspection exports
    def r53(path, text, msg, who, email, date, mode="a"):
        with open(os.path.join(wd, path), mode) as f:
            f.write(text)
        g("add", "-A")
        g("commit", "-qm", msg, GIT_AUTHOR_NAME=who, GIT_AUTHOR_EMAIL=email, GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
    r53("winery/blends/reserve-red.yaml", "name: reserve-red\nvintage: 2022\ncomponents:\n  22CS11: 74\n  23PN05: 14\n  23CS12: 12\n",
        "reserve-red: trial 3, more pinot for lift", "Lee Winemaker", "lee@harborhill.example", "2024-02-03T16:00:00Z", "w")
    r53("park/rides.yaml", "  - {id: WP06, name: Wave Pool Slide, zone: boardwalk, capacity_per_hour: 700, min_height_cm: 112, status: closed}\n",
        "rides: add WP06 (seasonal, closed)", "Park Engineering", "eng@park.example", "2024-02-04T09:00:00Z")
    r53("obs/calib/pipeline.yaml", "overscan_trim: [4, 2044]\n", "calib: trim overscan columns", "L. Ortega", "lortega@obs.example", "2024-02-05T03:00:00Z")
    r53("crew/roster/2024-01.csv", "C10006,F. Nakamura,SEA,FA,2024-01-30,P4412,07:00,15:30,400\n", "roster: C10006 covers P4412 on 01-30",
        "Crew Control", "crewcontrol@airline.example", "2024-02-06T12:00:00Z")
    r53("roast/recipes.yaml", "  washed-omni: {charge_c: 205, first_crack_c: 197, drop_c: 208, dev_ratio_pct: 20}\n", "profiles: add washed-omni",
        "Head Roaster", "roaster@roastery.example", "2024-02-07T08:00:00Z")
    r53("casino/paytables/dragon-cash.yaml", "game: Dragon Cash\nrtp_pct: 91.2\nversion: 8\n", "Dragon Cash paytable v8 (GLI cert 24-0113)",
        "Slot Ops", "slotops@casino.example", "2024-02-08T10:00:00Z", "w")
    # round 54: changes for the git-inspection exports
    import importlib.util as _ilu
    _sp = _ilu.spec_from_file_location("fx54", os.path.join(HERE, "fixture_r54.py"))
    _m = _ilu.module_from_spec(_sp); _sp.loader.exec_module(_m)
    for path, text, msg, who, email, date, mode in _m.COMMITS:
        r53(path, text, msg, who, email, date, mode)
    g("branch", "feature/login", "HEAD~1")
    g("branch", "release/1.4", "v1.4.2")
    return wd


def stub_programs(stubdir):
    for prog in STUBS:
        if shutil.which(prog) and prog not in FORCE_STUB:
            continue
        p = os.path.join(stubdir, prog)
        open(p, "w").write(STUB_SRC.replace("__OUT__", shlex.quote(os.path.join(HERE, "stub-out"))))
        os.chmod(p, 0o755)


def load_samples(yfile):
    j = yfile[:-5] + ".json"
    return json.load(open(j)) if os.path.exists(j) else {}


def classify(rcs, out):
    real = [rc for _, rc in rcs if rc != "agent"]
    if all(rc == 0 for rc in real):
        return "BENIGN-OK"
    low = out.lower()
    if any(u in low for u in UNREACHABLE):
        return "UNREACHABLE"
    if "command not found" in low or any(rc == 127 for rc in real):
        return "MISSING"
    return "BENIGN-FAIL"


def check_file(yfile, max_runs=12, verbose=False):
    exp = yaml.safe_load(open(yfile))
    base = tempfile.mkdtemp(prefix="r54s-sh-")
    res = {"file": os.path.basename(yfile), "marker": False, "leak": False, "runs": 0, "bash_n": []}
    try:
        wd = make_fixture(base)
        stubdir = os.path.join(base, "stubs")
        os.makedirs(stubdir)
        stub_programs(stubdir)
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=wd,
            capture_output=True,
            text=True,
            env={**os.environ, "GIT_CEILING_DIRECTORIES": base},
        ).stdout.strip()
        raw = json.dumps(load_samples(yfile)).replace("HEADSHA", head[:12])
        samples = json.loads(raw)
        tool_samples = samples.pop("__tools__", {})
        argdefs = exp.get("args") or {}
        benign = {a: benign_value(a, s, wd, samples) for a, s in argdefs.items()}
        benign = {a: v for a, v in benign.items() if v is not None}
        res["invalid_samples"] = [a for a, v in benign.items() if not valid(argdefs[a], v, wd)]
        res["missing"] = [a for a in (exp.get("required") or []) if a not in benign]
        for tname, tool in (exp.get("tools") or {}).items():
            for a, v in tool_samples.get(tname, {}).items():
                if not valid((tool.get("args") or {}).get(a), v, wd):
                    res["invalid_samples"].append(f"{tname}.{a}")
            for a in tool.get("required") or []:
                if a not in tool_samples.get(tname, {}):
                    res["missing"].append(f"{tname}.{a}")
        r = Run(exp, wd, stubdir)
        rcs = r.pipeline(benign, tool_samples)
        res["benign_rcs"] = rcs
        res["benign_class"] = classify(rcs, r.out)
        if res["benign_class"] in ("BENIGN-FAIL", "MISSING"):
            res["benign_out"] = r.out[-1500:]
        if verbose:
            print(r.out)
        res["bash_n"] += r.bash_errors
        ftxt = r.files_text()
        if MARK in r.out or MARK in ftxt:
            res["marker"], res["why"] = True, ("benign", r.out[-1500:])
        if leaked(r.out):
            res["leak"], res["why"] = True, ("benign", r.out[-1500:])
        r.close()
        res["runs"] += 1
        hostile = {a: hostile_values(s, wd) for a, s in argdefs.items()}
        thostile = {
            t: {a: hostile_values(s, wd) for a, s in (tool.get("args") or {}).items()}
            for t, tool in (exp.get("tools") or {}).items()
        }
        res["hostile_args"] = [
            a
            for a, s in argdefs.items()
            if hostile[a]
            and not (s or {}).get("enum")
            and not ((s or {}).get("items") or {}).get("enum")
            and (s or {}).get("type") not in ("boolean", "integer", "number")
        ]
        res["hostile_tool_args"] = [
            f"{t}.{a}"
            for t, d in thostile.items()
            for a, h in d.items()
            if h
            and not ((exp["tools"][t].get("args") or {})[a] or {}).get("enum")
            and ((exp["tools"][t].get("args") or {})[a] or {}).get("type")
            not in ("boolean", "integer", "number")
        ]
        n = max(
            [len(h) for h in hostile.values()]
            + [len(h) for d in thostile.values() for h in d.values()]
            + [0]
        )
        for i in range(min(n, max_runs)):
            args = dict(benign)
            for a, h in hostile.items():
                if h:
                    args[a] = h[i % len(h)]
            targs = {}
            for t, d in thostile.items():
                targs[t] = dict(tool_samples.get(t, {}))
                for a, h in d.items():
                    if h:
                        targs[t][a] = h[i % len(h)]
            r = Run(exp, wd, stubdir)
            r.pipeline(args, targs)
            res["runs"] += 1
            res["bash_n"] += r.bash_errors
            if verbose:
                print(json.dumps(args)[:300], r.out[-600:])
            ftxt = r.files_text()
            if MARK in r.out or MARK in ftxt or os.path.exists(PWN_FILE):
                res["marker"], res["why"] = True, (args, targs, r.out[-1500:])
            if leaked(r.out):
                res["leak"], res["why"] = True, (args, r.out[-1500:])
            r.close()
        res["bash_n"] = sorted(set(res["bash_n"]))
        return res
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    import concurrent.futures as cf

    files = sorted(f for f in sys.argv[1:] if not f.startswith("-"))
    verbose = "-v" in sys.argv
    if os.path.exists(PWN_FILE):
        os.unlink(PWN_FILE)
    results = []
    with cf.ThreadPoolExecutor(max_workers=1 if verbose else 4) as ex:
        for res in ex.map(lambda f: check_file(f, verbose=verbose), files):
            results.append(res)
            flag = "FIRED" if res["marker"] else ("LEAK" if res["leak"] else "ok")
            bn = "BASH-N-ERR" if res["bash_n"] else "bash-n-ok"
            print(
                f"{flag:5} {res['benign_class']:11} {bn:10} {res['file']:42} runs={res['runs']:3} "
                f"benign={res['benign_rcs']} hostile={res['hostile_args'] + res['hostile_tool_args']}"
                + (f" INVALID-SAMPLES={res['invalid_samples']}" if res["invalid_samples"] else "")
                + (f" MISSING-ARGS={res['missing']}" if res["missing"] else ""),
                flush=True,
            )
            if flag != "ok":
                print("   WHY:", json.dumps(res.get("why"))[:1500])
            if res["bash_n"]:
                print("   BASH-N:", res["bash_n"][:3])
            if res["benign_class"] in ("BENIGN-FAIL", "MISSING") and "-q" not in sys.argv:
                print("   BENIGN:", res.get("benign_out", "").replace("\n", "\n      ")[-900:])
    json.dump(results, open(os.path.join(HERE, "last-safe.json"), "w"), indent=1)
    bad = [r for r in results if r["marker"] or r["leak"]]
    print(
        f"\n{len(results)} files, {sum(r['runs'] for r in results)} runs, {len(bad)} fired/leaked, "
        f"{sum(1 for r in results if r['bash_n'])} with bash -n errors"
    )
    sys.exit(1 if bad else 0)
