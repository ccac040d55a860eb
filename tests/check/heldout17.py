"""Held-out labelled templates for issue 17 (leading_dash, programs:), written
without looking at how the checker treats them and frozen before scoring.

Labels follow the contract: a template is dangerous when some value the schema
admits can become shell syntax, code (of bash or of another interpreter), an
option, the program run, or a variable name. Where a label needs an argument
the case carries a one-line comment. Semantics that decide a label were
checked against bash 5.2 (and GNU tar/make/sed, perl, mawk, git) by hand.
"""

# ruff: noqa: E501  (templates are data: a line break would change them)

from __future__ import annotations

from tests.check._harness import Case

SAFE: list[Case] = [
    # ---- git -------------------------------------------------------------
    Case(
        "h17/safe/git-log-path",
        False,
        run=r"""git log -n 20 --oneline -- {{ args.x | shellquote }}""",
    ),
    Case(
        "h17/safe/git-log-author",
        False,
        run=r"""git log --author={{ args.a | shellquote }} -n {{ args.n }} --format='%h %an %s'""",
        args={"a": "S", "n": "N"},
    ),
    # the value is attached to --grep= in one word, so a leading '-' is just text
    Case(
        "h17/safe/git-log-grep-dash",
        False,
        run=r"""git log --grep="$ARG_x" --oneline -n 50""",
        args={"x": "D"},
    ),
    Case(
        "h17/safe/git-diff-range",
        False,
        run=r"""git diff --stat "{{ args.a }}..{{ args.b }}" --""",
        args={"a": "F", "b": "F"},
    ),
    Case("h17/safe/git-show-stat", False, run=r"""git show --stat --format=fuller "$ARG_x" --"""),
    Case(
        "h17/safe/git-show-blob",
        False,
        run=r"""git show "$ARG_rev:$ARG_path" """,
        args={"rev": "S", "path": "S"},
    ),
    Case(
        "h17/safe/git-clone-shallow",
        False,
        run=r"""git clone --depth 1 --branch {{ args.b }} -- {{ args.url | shellquote }} "/tmp/ws/{{ args.name }}"
git -C "/tmp/ws/{{ args.name }}" log -n 5 --oneline""",
        args={"url": "S", "b": "P", "name": "P"},
    ),
    Case(
        "h17/safe/git-checkout-ref",
        False,
        run=r"""git checkout --quiet {{ args.x | shellquote }} --
git log -n 1 --format='%H %s'""",
    ),
    # -e takes the next word as the pattern whatever it starts with
    Case(
        "h17/safe/git-grep-e-dash",
        False,
        run=r"""git grep -n -I -e "$ARG_x" -- '*.py' '*.yaml'""",
        args={"x": "D"},
    ),
    Case(
        "h17/safe/git-blame-range",
        False,
        run=r"""git blame -L "{{ args.start }},+{{ args.n }}" -- "$ARG_f" """,
        args={"start": "N", "n": "N", "f": "S"},
    ),
    Case(
        "h17/safe/git-rev-parse-verify",
        False,
        run=r"""sha=$(git rev-parse --verify --quiet {{ args.x | shellquote }}^{commit}) || { echo "unknown revision" >&2; exit 1; }
printf '%s\n' "$sha" """,
    ),
    Case(
        "h17/safe/git-tag-list",
        False,
        run=r"""git tag --list "release-{{ args.x }}*" --sort=-creatordate | head -n 10""",
        args={"x": "P"},
    ),
    Case("h17/safe/git-branch-contains", False, run=r"""git branch -r --contains "$ARG_x" """),
    Case(
        "h17/safe/git-archive",
        False,
        run=r"""git archive --format=tar.gz --prefix="app-{{ args.v }}/" -o "/tmp/app-{{ args.v }}.tar.gz" "v{{ args.v }}" """,
        args={"v": "P"},
    ),
    Case(
        "h17/safe/git-fetch-branch",
        False,
        run=r"""git fetch --quiet origin "{{ args.b }}"
git log --oneline -n 5 FETCH_HEAD""",
        args={"b": "P"},
    ),
    # the -c key is one of two enum words (user.name/user.email); the caller only sets its value
    Case(
        "h17/safe/git-c-enum-key",
        False,
        run=r"""git -c "{{ args.k }}=$ARG_v" commit -q --allow-empty -m "$ARG_msg" """,
        args={"k": "GITKEY", "v": "S", "msg": "S"},
    ),
    Case(
        "h17/safe/git-commit-identity",
        False,
        run=r"""git -c user.name="$ARG_name" -c user.email="$ARG_email" commit -q -m "$ARG_msg" """,
        args={"name": "S", "email": "S", "msg": "S"},
    ),
    Case(
        "h17/safe/git-diff-merge-base",
        False,
        run=r"""git diff --name-only "origin/$ARG_x...HEAD" --""",
    ),
    # W is an enum of the author's own option words: the caller picks one, it adds nothing
    Case(
        "h17/safe/git-log-enum-options",
        False,
        run=r"""git log {{ args.fmt }} -n 20""",
        args={"fmt": "W"},
    ),
    Case(
        "h17/safe/git-ls-files-xargs0",
        False,
        run=r"""git ls-files -z -- "src/{{ args.x }}" | xargs -0 -r wc -l --""",
        args={"x": "P"},
    ),
    Case(
        "h17/safe/git-log-since-days",
        False,
        run=r"""git log --since="{{ args.n }} days ago" --format='%h %s' --no-merges""",
        args={"n": "N"},
    ),
    Case("h17/safe/git-shortlog-since", False, run=r"""git shortlog -sn --since="$ARG_x" HEAD"""),
    Case(
        "h17/safe/git-checkout-digits-tag",
        False,
        run=r"""git checkout -q "v{{ args.v }}"
git describe --tags""",
        args={"v": "DIGITS"},
    ),
    # ---- docker / podman ---------------------------------------------------
    Case(
        "h17/safe/docker-inspect-status",
        False,
        run=r"""docker inspect --format '{{.State.Status}}' -- {{ args.x | shellquote }}""",
    ),
    Case(
        "h17/safe/docker-logs-tail",
        False,
        run=r"""docker logs --tail {{ args.n }} --timestamps {{ args.c | shellquote }} 2>&1""",
        args={"c": "S", "n": "N"},
    ),
    Case(
        "h17/safe/docker-ps-filter",
        False,
        run=r"""docker ps --all --filter "name=$ARG_x" --format '{{.ID}}\t{{.Names}}\t{{.Status}}'""",
    ),
    Case(
        "h17/safe/docker-images-reference",
        False,
        run=r"""docker images --filter "reference=registry.internal/{{ args.x }}" --format '{{.Repository}}:{{.Tag}}'""",
        args={"x": "P"},
    ),
    Case(
        "h17/safe/docker-run-lint-operand",
        False,
        run=r"""docker run --rm -v "$PWD:/w:ro" -w /w registry.internal/tools/ruff:0.4 ruff check -- "$ARG_x" """,
    ),
    Case(
        "h17/safe/docker-build-push",
        False,
        run=r"""set -euo pipefail
docker build -t "registry.internal/app:{{ args.v }}" .
docker push "registry.internal/app:{{ args.v }}" """,
        args={"v": "P"},
    ),
    Case(
        "h17/safe/docker-compose-logs",
        False,
        run=r"""docker compose -f deploy/compose.yml logs --no-color --tail={{ args.n }} -- {{ args.svc | shellquote }}""",
        args={"svc": "S", "n": "N"},
    ),
    Case(
        "h17/safe/docker-stats",
        False,
        run=r"""docker stats --no-stream --format '{{.Name}} {{.CPUPerc}} {{.MemUsage}}' "$ARG_x" """,
    ),
    Case(
        "h17/safe/podman-ps-label",
        False,
        run=r"""podman ps --filter "label=app=$ARG_x" --format '{{.Names}} {{.Status}}'""",
    ),
    Case(
        "h17/safe/podman-inspect-health",
        False,
        run=r"""podman inspect --format '{{.State.Health.Status}}' {{ args.x | shellquote }}""",
    ),
    Case(
        "h17/safe/podman-logs-since",
        False,
        run=r"""podman logs --since {{ args.m }}m -- "$ARG_c" """,
        args={"m": "N", "c": "S"},
    ),
    # the caller picks the container; the program run in it is fixed
    Case(
        "h17/safe/docker-exec-fixed-program",
        False,
        run=r"""docker exec "$ARG_x" cat /app/VERSION""",
    ),
    # ---- kubectl / helm ------------------------------------------------------
    Case(
        "h17/safe/kubectl-get-pods-label",
        False,
        run=r"""kubectl get pods -n {{ args.ns | shellquote }} -l app={{ args.app | shellquote }} -o wide""",
        args={"ns": "S", "app": "S"},
    ),
    Case(
        "h17/safe/kubectl-logs-deploy",
        False,
        run=r"""kubectl logs -n "$ARG_ns" "deploy/$ARG_app" --tail={{ args.n }} --timestamps""",
        args={"ns": "S", "app": "S", "n": "N"},
    ),
    # a negative integer attached to --since= is only a bad duration
    Case(
        "h17/safe/kubectl-logs-since-int",
        False,
        run=r"""kubectl logs -n "$ARG_ns" -l "app=$ARG_app" --since={{ args.m }}m --tail=200""",
        args={"ns": "S", "app": "S", "m": "I"},
    ),
    Case(
        "h17/safe/kubectl-describe-pod",
        False,
        run=r"""kubectl describe pod -n "$ARG_ns" -- "$ARG_pod" """,
        args={"ns": "S", "pod": "S"},
    ),
    Case(
        "h17/safe/kubectl-events-field-selector",
        False,
        run=r"""kubectl get events -n "$ARG_ns" --field-selector "involvedObject.name=$ARG_pod" --sort-by=.lastTimestamp""",
        args={"ns": "S", "pod": "S"},
    ),
    Case(
        "h17/safe/kubectl-rollout-status",
        False,
        run=r"""kubectl rollout status -n "$ARG_ns" "deployment/$ARG_name" --timeout={{ args.t }}s""",
        args={"ns": "S", "name": "S", "t": "N"},
    ),
    Case(
        "h17/safe/kubectl-set-image",
        False,
        run=r"""kubectl set image -n prod "deployment/$ARG_name" "app=registry.internal/app:{{ args.v }}" """,
        args={"name": "S", "v": "P"},
    ),
    Case(
        "h17/safe/kubectl-scale",
        False,
        run=r"""kubectl scale -n staging --replicas={{ args.n }} "deployment/$ARG_name" """,
        args={"n": "N", "name": "S"},
    ),
    Case(
        "h17/safe/kubectl-jq-select",
        False,
        run=r"""kubectl get pods -A -o json | jq -r --arg app "$ARG_app" '.items[] | select(.metadata.labels.app == $app) | "\(.metadata.namespace)/\(.metadata.name)"'""",
        args={"app": "S"},
    ),
    # the caller picks the pod; the program run in it is fixed
    Case(
        "h17/safe/kubectl-exec-fixed-program",
        False,
        run=r"""kubectl exec -n "$ARG_ns" "$ARG_pod" -- cat /app/VERSION""",
        args={"ns": "S", "pod": "S"},
    ),
    Case(
        "h17/safe/kubectl-go-template",
        False,
        run=r"""kubectl get deploy -n "$ARG_ns" -o go-template='{{range .items}}{{.metadata.name}} {{.status.readyReplicas}}{{"\n"}}{{end}}'""",
        args={"ns": "S"},
    ),
    Case(
        "h17/safe/kubectl-context-enum",
        False,
        run=r"""kubectl --context {{ args.e }} get nodes -o wide""",
        args={"e": "E"},
    ),
    Case(
        "h17/safe/helm-upgrade-tag",
        False,
        run=r"""helm upgrade --install app ./charts/app -n prod --set-string image.tag={{ args.v }} --wait --timeout 5m""",
        args={"v": "P"},
    ),
    Case(
        "h17/safe/helm-status-jq",
        False,
        run=r"""helm status "$ARG_rel" -n "$ARG_ns" -o json | jq -r '.info.status'""",
        args={"rel": "S", "ns": "S"},
    ),
    Case(
        "h17/safe/kubectl-apply-heredoc-configmap",
        False,
        run=r"""kubectl apply -f - <<EOF
apiVersion: v1
kind: ConfigMap
metadata:
  name: release-marker
  namespace: staging
data:
  version: "$ARG_v"
EOF""",
        args={"v": "P"},
    ),
    Case(
        "h17/safe/kubectl-case-enum-namespace",
        False,
        run=r"""case "{{ args.env }}" in
  alpha) ns=staging ;;
  beta) ns=production ;;
esac
kubectl get pods -n "$ns" -o wide""",
        args={"env": "E"},
    ),
    Case(
        "h17/safe/kubectl-label-ident",
        False,
        run=r"""kubectl label pod -n "$ARG_ns" "$ARG_pod" "team={{ args.t }}" --overwrite""",
        args={"ns": "S", "pod": "S", "t": "IDENT"},
    ),
    Case(
        "h17/safe/timeout-rollout-posint",
        False,
        run=r"""timeout {{ args.n }} kubectl rollout status -n prod deployment/app""",
        args={"n": "POSINT"},
    ),
    # ---- grep / rg / find / xargs ----------------------------------------
    Case(
        "h17/safe/grep-fixed-e-dash",
        False,
        run=r"""grep -rnF -e "$ARG_x" -- src/ docs/""",
        args={"x": "D"},
    ),
    Case(
        "h17/safe/grep-count-shellquote",
        False,
        run=r"""grep -c -- {{ args.x | shellquote }} /var/log/app/app.log || true""",
    ),
    Case("h17/safe/rg-fixed-strings", False, run=r"""rg -n --fixed-strings -- "$ARG_x" src/"""),
    Case(
        "h17/safe/find-name-shellquote",
        False,
        run=r"""find /var/log/app -type f -name {{ args.x | shellquote }} -mtime -1 -print""",
    ),
    Case(
        "h17/safe/find-mtime-int",
        False,
        run=r"""find /var/log/app -type f -name '*.log' -mtime +{{ args.n }} -print""",
        args={"n": "N"},
    ),
    Case(
        "h17/safe/find-xargs0-grep",
        False,
        run=r"""find src -type f -name "*.{{ args.ext }}" -print0 | xargs -0 -r grep -l -e "$ARG_pat" --""",
        args={"ext": "P", "pat": "D"},
    ),
    Case(
        "h17/safe/find-exec-sha256",
        False,
        run=r"""find "releases/{{ args.v }}" -type f -name '*.tgz' -exec sha256sum -- {} +""",
        args={"v": "P"},
    ),
    Case(
        "h17/safe/find-exec-sh-dollar1",
        False,
        run=r"""find "/srv/uploads/$ARG_x" -type f -name '*.gz' -exec sh -c 'gzip -t -- "$1" && echo "ok $1"' _ {} \;""",
    ),
    Case(
        "h17/safe/grep-allowlist-then-ssh",
        False,
        run=r"""grep -qxF -e "$ARG_host" /etc/harbor/hosts.allow || { echo "host not allowed" >&2; exit 2; }
ssh -o BatchMode=yes -- "$ARG_host" uptime""",
        args={"host": "S"},
    ),
    Case(
        "h17/safe/printf-xargs0-sha",
        False,
        run=r"""printf '%s\0' "$ARG_a" "$ARG_b" | xargs -0 -n1 sha256sum --""",
        args={"a": "S", "b": "S"},
    ),
    Case(
        "h17/safe/xargs0-sh-c-dollar1",
        False,
        run=r"""printf '%s\0' "$ARG_a" "$ARG_b" | xargs -0 -n1 sh -c 'git log -1 --format="%h %s" -- "$1"' _""",
        args={"a": "S", "b": "S"},
    ),
    Case(
        "h17/safe/grep-context-int",
        False,
        run=r"""grep -n -C {{ args.n }} -e "$ARG_x" -- /var/log/app/app.log""",
        args={"n": "N", "x": "D"},
    ),
    Case(
        "h17/safe/grep-patterns-from-stdin",
        False,
        run=r"""printf '%s\n' "$ARG_x" | grep -Ff - /var/log/app/app.log | tail -n 50""",
    ),
    Case(
        "h17/safe/find-newermt-xargs0",
        False,
        run=r"""find /var/log/app -type f -newermt "$ARG_x" -name '*.log' -print0 | xargs -0 -r ls -l --""",
    ),
    Case(
        "h17/safe/rg-glob-pattern",
        False,
        run=r"""rg -n -g "*.{{ args.ext }}" -e TODO -- .""",
        args={"ext": "P"},
    ),
    # NOQUOTE admits no ' and no line break, so it cannot leave the single quotes
    Case(
        "h17/safe/grep-noquote-in-squotes",
        False,
        run=r"""grep -rnF -e '{{ args.x }}' -- src/""",
        args={"x": "NOQUOTE"},
    ),
    # ---- tar / zip / gzip ----------------------------------------------------
    Case(
        "h17/safe/tar-create-dated",
        False,
        run=r"""tar -czf "/tmp/logs-{{ args.d }}.tgz" -C /var/log/app .""",
        args={"d": "DIGITS"},
    ),
    Case(
        "h17/safe/tar-list-head",
        False,
        run=r"""tar -tzf "/srv/backups/$ARG_name.tgz" | head -n {{ args.n }}""",
        args={"name": "S", "n": "N"},
    ),
    Case(
        "h17/safe/tar-extract-release",
        False,
        run=r"""mkdir -p /srv/stage
tar -xzf "/srv/releases/{{ args.v }}.tgz" -C /srv/stage""",
        args={"v": "P"},
    ),
    Case(
        "h17/safe/tar-create-operand-after-dashdash",
        False,
        run=r"""tar -czf - -C /srv/data -- "$ARG_x" | sha256sum""",
    ),
    Case(
        "h17/safe/zip-report",
        False,
        run=r"""zip -qr "/tmp/report-{{ args.d }}.zip" reports/""",
        args={"d": "DIGITS"},
    ),
    Case("h17/safe/unzip-list", False, run=r"""unzip -l "uploads/$ARG_x" """),
    Case(
        "h17/safe/gzip-dc-tail",
        False,
        run=r"""gzip -dc -- "/var/log/app/$ARG_f" | tail -n {{ args.n }}""",
        args={"f": "S", "n": "N"},
    ),
    # ---- curl / wget -----------------------------------------------------------
    Case(
        "h17/safe/curl-data-urlencode",
        False,
        run=r"""curl -fsS --get --data-urlencode "service=$ARG_svc" --data-urlencode "q=$ARG_q" https://logs.internal/api/v1/search""",
        args={"svc": "S", "q": "S"},
    ),
    Case(
        "h17/safe/curl-urlencode-shellquote-part",
        False,
        run=r"""curl -fsS -G https://search.internal/api --data-urlencode q={{ args.x | shellquote }}""",
    ),
    Case(
        "h17/safe/curl-download-pattern",
        False,
        run=r"""curl -fsSL -o "/tmp/app-{{ args.v }}.tgz" "https://artifacts.internal/app/{{ args.v }}/app.tgz" """,
        args={"v": "P"},
    ),
    Case(
        "h17/safe/jq-build-body-curl",
        False,
        run=r"""jq -n --arg name "$ARG_name" --arg reason "$ARG_reason" '{name: $name, reason: $reason}' \
  | curl -fsS -X POST -H 'Content-Type: application/json' --data-binary @- https://ops.internal/api/silences""",
        args={"name": "S", "reason": "S"},
    ),
    Case(
        "h17/safe/wget-mirror-file",
        False,
        run=r"""wget -q -O "dl/{{ args.f }}" "https://mirror.internal/pub/{{ args.f }}" """,
        args={"f": "F"},
    ),
    Case(
        "h17/safe/curl-status-jq",
        False,
        run=r"""curl -fsS "https://status.internal/api/services/{{ args.svc }}" | jq -r '.status'""",
        args={"svc": "P"},
    ),
    Case(
        "h17/safe/curl-retry-int",
        False,
        run=r"""curl -fsS --retry {{ args.n }} --max-time 10 -o /dev/null -w '%{http_code}\n' "https://{{ args.svc }}.internal/healthz" """,
        args={"n": "N", "svc": "P"},
    ),
    # ---- jq ------------------------------------------------------------------------
    Case(
        "h17/safe/jq-arg-dash",
        False,
        run=r"""jq -r --arg q "$ARG_x" '.[] | select(.name == $q) | .id' inventory.json""",
        args={"x": "D"},
    ),
    Case(
        "h17/safe/jq-argjson-int",
        False,
        run=r"""jq --argjson n {{ args.n }} '.[:$n]' reports/latest.json""",
        args={"n": "N"},
    ),
    Case(
        "h17/safe/jq-env-lookup",
        False,
        run=r"""jq -r '.services[env.ARG_x].port' config/services.json""",
    ),
    Case(
        "h17/safe/jq-arg-shellquote",
        False,
        run=r"""jq -r --arg env {{ args.x | shellquote }} '.[$env].url' config/endpoints.json""",
    ),
    Case(
        "h17/safe/jq-harbor-output",
        False,
        run=r"""jq -n --arg v "$ARG_x" '{version: $v}' > "$HARBOR_OUTPUT" """,
    ),
    # ---- python / node / perl / awk reading argv or the environment ----------------
    # after -c CODE python puts every further word into sys.argv, options included
    Case(
        "h17/safe/python-c-sysargv-dash",
        False,
        run=r"""python3 -c 'import sys; print(sys.argv[1].strip().lower())' "$ARG_x" """,
        args={"x": "D"},
    ),
    Case(
        "h17/safe/python-stdin-program-argv",
        False,
        run=r"""python3 - "$ARG_x" <<'EOF'
import json, sys
print(json.dumps({"q": sys.argv[1]}))
EOF""",
    ),
    Case(
        "h17/safe/python-c-environ",
        False,
        run=r"""python3 -c 'import os, urllib.parse; print(urllib.parse.quote(os.environ["ARG_x"]))'""",
    ),
    Case(
        "h17/safe/node-e-argv",
        False,
        run=r"""node -e 'console.log(JSON.stringify({name: process.argv[1]}))' "$ARG_x" """,
    ),
    Case("h17/safe/perl-e-argv", False, run=r"""perl -le 'print length $ARGV[0]' -- "$ARG_x" """),
    Case("h17/safe/awk-environ", False, run=r"""awk 'BEGIN { print length(ENVIRON["ARG_x"]) }'"""),
    # pytest parses -k itself (no eval since pytest 6)
    Case("h17/safe/pytest-k-expression", False, run=r"""python3 -m pytest -q -k "$ARG_x" tests/"""),
    # ---- sh -c with "$1" -----------------------------------------------------------
    Case(
        "h17/safe/sh-c-dollar1-shellquote",
        False,
        run=r"""sh -c 'grep -c -- "$1" /var/log/app/app.log' _ {{ args.x | shellquote }}""",
    ),
    Case(
        "h17/safe/bash-c-dollar1-dash",
        False,
        run=r"""bash -c 'printf "%s\n" "$1" | wc -c' _ "$ARG_x" """,
        args={"x": "D"},
    ),
    # the inner shell expands ARG_x from its environment: the value is never script text
    Case(
        "h17/safe/sh-c-reads-env",
        False,
        run=r"""sh -c 'echo "checking $ARG_x"; test -e "/srv/apps/$ARG_x"'""",
    ),
    Case(
        "h17/safe/sudo-sh-c-dollar1",
        False,
        run=r"""sudo -n -u app -- sh -c 'cd /srv/app && git log -n 5 --oneline -- "$1"' _ "$ARG_x" """,
    ),
    Case(
        "h17/safe/timeout-bash-c-dollar1",
        False,
        run=r"""timeout {{ args.t }} bash -c 'until curl -fsS "https://$1/healthz" >/dev/null; do sleep 2; done' _ "{{ args.host }}" """,
        args={"t": "POSINT", "host": "P"},
    ),
    # ---- awk -v / sed with a constrained replacement -------------------------------
    Case(
        "h17/safe/awk-v-compare-dash",
        False,
        run=r"""awk -F'\t' -v want="$ARG_x" '$2 == want { print $1 }' data/hosts.tsv""",
        args={"x": "D"},
    ),
    Case(
        "h17/safe/awk-v-int",
        False,
        run=r"""awk -v n={{ args.n }} 'NR <= n' /var/log/app/app.log""",
        args={"n": "N"},
    ),
    Case(
        "h17/safe/awk-v-shellquote",
        False,
        run=r"""awk -v svc={{ args.x | shellquote }} '$3 == svc { c++ } END { print c + 0 }' /var/log/app/access.log""",
    ),
    Case(
        "h17/safe/sed-version-digits",
        False,
        run=r"""sed -i "s/^version = .*/version = \"{{ args.v }}\"/" pyproject.toml""",
        args={"v": "DIGITS"},
    ),
    Case(
        "h17/safe/sed-template-pattern",
        False,
        run=r"""sed "s/@TAG@/{{ args.v }}/g" deploy/app.yaml.in > "$HARBOR_RUN_DIR/app.yaml"
kubectl apply --dry-run=server -f "$HARBOR_RUN_DIR/app.yaml" """,
        args={"v": "P"},
    ),
    # ---- journalctl / systemctl ------------------------------------------------------
    Case(
        "h17/safe/journalctl-unit-enum",
        False,
        run=r"""journalctl -u "app-{{ args.u }}.service" --since "{{ args.h }} hours ago" --no-pager -o short-iso""",
        args={"u": "E", "h": "N"},
    ),
    Case(
        "h17/safe/journalctl-grep-dash",
        False,
        run=r"""journalctl -u app.service --no-pager -n 500 -g "$ARG_x" """,
        args={"x": "D"},
    ),
    Case(
        "h17/safe/journalctl-pipe-grep",
        False,
        run=r"""journalctl -u "{{ args.unit }}" -o cat --no-pager --since today | grep -F -e "$ARG_pat" | tail -n {{ args.n }}""",
        args={"unit": "P", "pat": "D", "n": "N"},
    ),
    Case(
        "h17/safe/systemctl-status-enum",
        False,
        run=r"""systemctl --no-pager status -- "app-{{ args.e }}.service" """,
        args={"e": "E"},
    ),
    Case(
        "h17/safe/sudo-systemctl-restart-enum",
        False,
        run=r"""sudo -n systemctl restart "app-{{ args.e }}.service"
systemctl is-active --quiet "app-{{ args.e }}.service" """,
        args={"e": "E"},
    ),
    Case(
        "h17/safe/systemctl-is-active-instance",
        False,
        run=r"""systemctl is-active -- "app@$ARG_x.service" """,
    ),
    # ---- psql ------------------------------------------------------------------------
    Case(
        "h17/safe/psql-heredoc-variable",
        False,
        run=r"""psql -X -At -v ON_ERROR_STOP=1 -v app="$ARG_x" <<'SQL'
select id, version, finished_at from deploys where app = :'app' order by finished_at desc limit 10;
SQL""",
    ),
    Case(
        "h17/safe/psql-file-int-var",
        False,
        run=r"""psql -X -At -v ON_ERROR_STOP=1 -v job_id={{ args.n }} -f sql/job_status.sql""",
        args={"n": "N"},
    ),
    Case(
        "h17/safe/psql-set-shellquote",
        False,
        run=r"""psql -X -At -v ON_ERROR_STOP=1 --set=tenant={{ args.x | shellquote }} <<'SQL'
select count(*) from usage_events where tenant = :'tenant';
SQL""",
    ),
    Case(
        "h17/safe/sudo-psql-heredoc",
        False,
        run=r"""sudo -n -u postgres -- psql -X -At -v "db=$ARG_x" <<'SQL'
select pg_size_pretty(pg_database_size(:'db'));
SQL""",
    ),
    # ---- make ------------------------------------------------------------------------
    Case(
        "h17/safe/make-enum-target",
        False,
        run=r"""make -C services/api {{ args.t }}""",
        args={"t": "E"},
    ),
    # P has no $ ( ) = or space: nothing make would expand
    Case(
        "h17/safe/make-var-pattern", False, run=r"""make build TAG={{ args.v }}""", args={"v": "P"}
    ),
    Case(
        "h17/safe/nice-make-enum",
        False,
        run=r"""nice -n 10 make -j4 "{{ args.t }}" """,
        args={"t": "E"},
    ),
    # ---- ssh / rsync -------------------------------------------------------------
    Case(
        "h17/safe/ssh-fixed-command-shellquote-host",
        False,
        run=r"""ssh -o BatchMode=yes -o ConnectTimeout=5 -- {{ args.x | shellquote }} 'uptime; df -h /'""",
    ),
    Case(
        "h17/safe/ssh-pattern-host-restart",
        False,
        run=r"""ssh -o BatchMode=yes -- "deploy@{{ args.host }}" 'sudo systemctl restart app && systemctl is-active app'""",
        args={"host": "P"},
    ),
    # the remote shell parses the words, but an enum value is a plain word there too
    Case(
        "h17/safe/ssh-enum-in-remote-command",
        False,
        run=r"""ssh -o BatchMode=yes -- deploy@web1.internal "sudo systemctl restart app-{{ args.e }}" """,
        args={"e": "E"},
    ),
    Case(
        "h17/safe/ssh-int-in-remote-command",
        False,
        run=r"""ssh -o BatchMode=yes -- deploy@web1.internal "journalctl -u app -n {{ args.n }} --no-pager" """,
        args={"n": "N"},
    ),
    # printf %q quotes for the remote bash, which re-reads it as one word
    Case(
        "h17/safe/ssh-printf-q-remote-word",
        False,
        run=r"""ssh -o BatchMode=yes -- deploy@web1.internal "grep -c -- $(printf '%q' "$ARG_x") /var/log/app/app.log" """,
    ),
    Case(
        "h17/safe/rsync-deploy-pattern-host",
        False,
        run=r"""rsync -az --delete -- dist/ "deploy@{{ args.host }}:/srv/www/{{ args.site }}/" """,
        args={"host": "P", "site": "P"},
    ),
    Case(
        "h17/safe/rsync-local-release",
        False,
        run=r"""rsync -a --delete -- "/srv/releases/{{ args.v }}/" /srv/app/current/""",
        args={"v": "P"},
    ),
    # ---- case / dispatch ----------------------------------------------------------------
    # only lint, test or build get past the case: every other value exits first
    Case(
        "h17/safe/case-guarded-script-dispatch",
        False,
        run=r"""case "$ARG_x" in
  lint|test|build) ;;
  *) echo "unknown task: $ARG_x" >&2; exit 2 ;;
esac
"./scripts/$ARG_x.sh" """,
    ),
    Case(
        "h17/safe/case-prefix-channel",
        False,
        run=r"""case "$ARG_x" in
  release-*) channel=stable ;;
  *) channel=canary ;;
esac
printf 'channel=%s\n' "$channel" >> "$HARBOR_STEP_OUTPUT" """,
    ),
    # the enum selects one of the author's two functions
    Case(
        "h17/safe/enum-function-dispatch",
        False,
        run=r"""deploy_alpha() { kubectl -n staging rollout restart deployment/app; }
deploy_beta() { kubectl -n production rollout restart deployment/app; }
deploy_{{ args.e }}""",
        args={"e": "E"},
    ),
    # a boolean renders as true or false: the builtins
    Case(
        "h17/safe/bool-as-condition-command",
        False,
        run=r"""if {{ args.b }}; then
  echo "dry run: nothing applied"
else
  kubectl apply -f deploy/
fi""",
        args={"b": "B"},
    ),
    Case(
        "h17/safe/bool-selects-literal-flag",
        False,
        run=r"""if [ "$ARG_b" = true ]; then extra=--no-cache; else extra=; fi
docker build $extra -t registry.internal/app:dev .""",
        args={"b": "B"},
    ),
    # ---- here-documents ------------------------------------------------------------
    Case(
        "h17/safe/heredoc-summary-env",
        False,
        run=r"""cat > "$HARBOR_RUN_DIR/summary.md" <<EOF
# Release $ARG_v
Requested by: ${ARG_who:-unknown}
Date: $(date -u +%Y-%m-%d)
EOF""",
        args={"v": "S", "who": "S"},
    ),
    Case(
        "h17/safe/heredoc-tee-log",
        False,
        run=r"""tee -a "/tmp/deploy-{{ args.id }}.log" <<EOF
app=$ARG_app version=$ARG_v
EOF""",
        args={"id": "N", "app": "S", "v": "S"},
    ),
    # S admits no line break, so the line can never be the terminator; the body is literal
    Case(
        "h17/safe/heredoc-quoted-raw-after-text",
        False,
        run=r"""cat > "$HARBOR_RUN_DIR/ticket.txt" <<'EOF'
ticket: {{ args.x }}
EOF
wc -c < "$HARBOR_RUN_DIR/ticket.txt" """,
    ),
    Case(
        "h17/safe/heredoc-int-raw",
        False,
        run=r"""cat <<EOF
retries: {{ args.n }}
timeout: $(( {{ args.n }} * 30 ))s
EOF""",
        args={"n": "N"},
    ),
    Case(
        "h17/safe/heredoc-step-output-notes",
        False,
        run=r"""{ echo "notes<<EOF"; git log -n {{ args.n }} --format='- %s' -- "$ARG_path"; echo "EOF"; } >> "$HARBOR_STEP_OUTPUT" """,
        args={"n": "N", "path": "S"},
    ),
    # S admits no line break: the comment cannot end early
    Case(
        "h17/safe/comment-raw-value",
        False,
        run=r"""# requested by ticket {{ args.x }}
git log -n 5 --oneline""",
    ),
    # ---- printf ----------------------------------------------------------------------
    Case("h17/safe/printf-shellquote", False, run=r"""printf '%s\n' {{ args.x | shellquote }}"""),
    Case(
        "h17/safe/printf-mixed",
        False,
        run=r"""printf 'Deploying %s to %s\n' "$ARG_v" "{{ args.e }}" """,
        args={"v": "S", "e": "E"},
    ),
    # bash's printf %d reads a number, it does not evaluate arithmetic (checked: a[$(cmd)] is 'invalid number')
    Case("h17/safe/printf-d-string", False, run=r"""printf 'retries: %d\n' "$ARG_x" """),
    Case(
        "h17/safe/printf-dashdash-dash",
        False,
        run=r"""printf -- '%s\n' "$ARG_x" """,
        args={"x": "D"},
    ),
    # %q output is re-read by bash as the same single word (checked with $( ) ` ' " ;)
    Case(
        "h17/safe/printf-q-then-source",
        False,
        run=r"""printf 'RELEASE=%q\n' "$ARG_x" > "$HARBOR_RUN_DIR/release.env"
. "$HARBOR_RUN_DIR/release.env"
printf 'release %s\n' "$RELEASE" """,
    ),
    Case(
        "h17/safe/printf-step-output",
        False,
        run=r"""printf 'version=%s\n' "$ARG_x" >> "$HARBOR_STEP_OUTPUT" """,
    ),
    # %q makes the namespace one inert word of the eval'd text
    Case(
        "h17/safe/eval-printf-q",
        False,
        run=r"""cmd="kubectl get pods -n $(printf '%q' "$ARG_x") -o wide"
eval "$cmd" """,
    ),
    # ---- loops and arrays ----------------------------------------------------------------
    Case(
        "h17/safe/loop-set-positional",
        False,
        run=r"""set -- "$ARG_a" "$ARG_b"
for f in "$@"; do
  sha256sum -- "dist/$f"
done""",
        args={"a": "S", "b": "S"},
    ),
    Case(
        "h17/safe/read-ra-services",
        False,
        run=r"""IFS=, read -r -a svcs <<< "$ARG_x"
for s in "${svcs[@]}"; do
  kubectl rollout status -n prod "deployment/$s" --timeout=60s
done""",
    ),
    Case(
        "h17/safe/hosts-array-int",
        False,
        run=r"""hosts=(web1 web2 web3)
for h in "${hosts[@]}"; do
  ssh -o BatchMode=yes -- "$h.internal" "tail -n {{ args.n }} /var/log/app/app.log"
done""",
        args={"n": "N"},
    ),
    Case(
        "h17/safe/while-read-procsub",
        False,
        run=r"""while IFS= read -r line; do
  printf '%s\n' "${line%% *}"
done < <(git log -n {{ args.n }} --format='%h %s' -- "$ARG_path")""",
        args={"n": "N", "path": "S"},
    ),
    Case(
        "h17/safe/mapfile-grep",
        False,
        run=r"""mapfile -t hits < <(grep -rlF -e "$ARG_x" -- config/ || true)
printf '%d files\n' "${#hits[@]}"
printf '%s\n' "${hits[@]}" """,
        args={"x": "D"},
    ),
    Case(
        "h17/safe/for-glob-grep",
        False,
        run=r"""for f in /var/log/app/*.log; do
  printf '%s: ' "$f"
  grep -c -e "$ARG_x" -- "$f" || true
done""",
        args={"x": "D"},
    ),
    # an integer subscript (negative counts from the end) is only arithmetic on a number
    Case(
        "h17/safe/array-index-int",
        False,
        run=r"""envs=(dev staging prod)
printf '%s\n' "${envs[ARG_x]}" """,
        args={"x": "I"},
    ),
    # ---- defaults ----------------------------------------------------------------------------
    Case(
        "h17/safe/default-ref",
        False,
        run=r"""ref="${ARG_x:-main}"
git log -n 10 --oneline "$ref" --""",
    ),
    Case(
        "h17/safe/default-ns-assignment",
        False,
        run=r"""ns=${ARG_x:-default}
kubectl get pods -n "$ns" """,
    ),
    Case(
        "h17/safe/default-since",
        False,
        run=r"""kubectl logs -n "${ARG_ns:-default}" "deploy/$ARG_app" --since="${ARG_since:-1h}" """,
        args={"ns": "S", "app": "S", "since": "S"},
    ),
    Case("h17/safe/default-echo", False, run=r"""echo "${ARG_x:-no message given}" """),
    Case(
        "h17/safe/default-assign-int",
        False,
        run=r""": "${ARG_tail:=100}"
docker logs --tail "$ARG_tail" -- "$ARG_c" """,
        args={"tail": "N", "c": "S"},
    ),
    # ---- arithmetic on integers -----------------------------------------------------------
    Case(
        "h17/safe/arith-raw-int", False, run=r"""echo $(( {{ args.x }} * 60 ))""", args={"x": "I"}
    ),
    Case(
        "h17/safe/arith-env-sum",
        False,
        run=r"""total=$(( ARG_a + ARG_b ))
printf 'total=%d\n' "$total" """,
        args={"a": "I", "b": "I"},
    ),
    Case(
        "h17/safe/arith-guard-then-scale",
        False,
        run=r"""(( ARG_x > 0 )) || { echo "count must be positive" >&2; exit 2; }
kubectl scale -n staging --replicas="$ARG_x" deployment/worker""",
        args={"x": "I"},
    ),
    Case(
        "h17/safe/for-arith-int",
        False,
        run=r"""for ((i = 1; i <= ARG_n; i++)); do
  curl -fsS -o /dev/null https://api.internal/healthz && break
  sleep 2
done""",
        args={"n": "N"},
    ),
    Case(
        "h17/safe/let-int",
        False,
        run=r"""let "delay = ARG_n * 2"
sleep "$delay" """,
        args={"n": "N"},
    ),
    Case(
        "h17/safe/declare-i-int",
        False,
        run=r"""declare -i retries="$ARG_n"
until kubectl -n prod rollout status deployment/app --timeout=30s; do
  (( retries-- > 0 )) || exit 1
done""",
        args={"n": "N"},
    ),
    Case(
        "h17/safe/substring-int",
        False,
        run=r"""sha=$(git rev-parse HEAD)
printf '%s\n' "${sha:0:{{ args.n }}}" """,
        args={"n": "N"},
    ),
    Case(
        "h17/safe/seq-posint-loop",
        False,
        run=r"""for i in $(seq 1 {{ args.n }}); do
  curl -fsS https://api.internal/healthz >/dev/null && echo "try $i ok"
done""",
        args={"n": "POSINT"},
    ),
    # getopt hands -n its next word whatever it starts with: a negative count is a value
    Case(
        "h17/safe/tail-n-int-value",
        False,
        run=r"""tail -n "$ARG_n" /var/log/app/app.log""",
        args={"n": "I"},
    ),
    # ---- test / [[ comparisons -----------------------------------------------------------
    Case(
        "h17/safe/test-string-equal",
        False,
        run=r"""if [ "$ARG_x" = main ]; then echo "refusing to touch main" >&2; exit 2; fi
git push --dry-run origin "HEAD:refs/heads/$ARG_x" """,
    ),
    # [ ... -gt ... ] (the test builtin) reads a number, no arithmetic evaluation (checked: 'integer expression expected')
    Case(
        "h17/safe/test-gt-string",
        False,
        run=r"""if [ "$ARG_x" -gt 100 ]; then echo "at most 100 lines" >&2; exit 2; fi
head -n "$ARG_x" /var/log/app/app.log""",
    ),
    Case(
        "h17/safe/test-file-then-jq",
        False,
        run=r"""test -f "reports/$ARG_x.json" && jq . "reports/$ARG_x.json" """,
    ),
    Case(
        "h17/safe/dbl-bracket-glob-match",
        False,
        run=r"""[[ "$ARG_x" == release-* ]] || { echo "not a release branch" >&2; exit 2; }
git log -n 5 --oneline "origin/$ARG_x" --""",
    ),
    Case(
        "h17/safe/dbl-bracket-regex",
        False,
        run=r"""[[ "$ARG_x" =~ ^v[0-9]+\.[0-9]+\.[0-9]+$ ]] || exit 2
git show --stat "$ARG_x" --""",
    ),
    Case(
        "h17/safe/dbl-bracket-int-range",
        False,
        run=r"""[[ "$ARG_x" -ge 1 && "$ARG_x" -le 10 ]] || exit 2
kubectl scale -n staging --replicas="$ARG_x" deploy/api""",
        args={"x": "I"},
    ),
    Case(
        "h17/safe/dbl-bracket-dir",
        False,
        run=r"""[[ -d "/srv/apps/$ARG_x" ]] && du -sh -- "/srv/apps/$ARG_x" """,
    ),
    # ---- pipelines, functions, multi-line scripts ---------------------------------------
    Case(
        "h17/safe/deploy-set-euo",
        False,
        run=r"""set -euo pipefail
image="registry.internal/app:{{ args.v }}"
docker pull "$image"
kubectl --context "{{ args.e }}" -n app set image deployment/app "app=$image"
kubectl --context "{{ args.e }}" -n app rollout status deployment/app --timeout=300s""",
        args={"v": "P", "e": "E"},
    ),
    Case(
        "h17/safe/function-log-helper",
        False,
        run=r"""log() { printf '[%s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
log "checking $ARG_svc"
curl -fsS --get --data-urlencode "name=$ARG_svc" https://status.internal/api/v1/services""",
        args={"svc": "S"},
    ),
    Case(
        "h17/safe/function-local-args",
        False,
        run=r"""count_errors() {
  local file=$1 pattern=$2
  grep -c -F -e "$pattern" -- "$file" || true
}
count_errors /var/log/app/app.log "$ARG_x" """,
        args={"x": "D"},
    ),
    Case(
        "h17/safe/pipeline-triage-not-running",
        False,
        run=r"""set -o pipefail
kubectl get pods -n "$ARG_ns" --no-headers \
  | awk '$3 != "Running" { print $1 }' \
  | head -n {{ args.n }} \
  | xargs -r -n1 kubectl describe pod -n "$ARG_ns" --""",
        args={"ns": "S", "n": "N"},
    ),
    Case(
        "h17/safe/trap-cleanup-clone",
        False,
        run=r"""tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git clone --depth 1 -- {{ args.x | shellquote }} "$tmp/repo"
git -C "$tmp/repo" log -n 5 --oneline""",
    ),
    Case(
        "h17/safe/retry-healthz",
        False,
        run=r"""for attempt in 1 2 3; do
  if curl -fsS "https://{{ args.svc }}.internal/healthz"; then exit 0; fi
  echo "attempt $attempt failed" >&2
  sleep $(( attempt * {{ args.n }} ))
done
exit 1""",
        args={"svc": "P", "n": "N"},
    ),
    Case(
        "h17/safe/jq-output-json",
        False,
        run=r"""jq -n --arg app "$ARG_app" --argjson replicas {{ args.n }} '{app: $app, replicas: $replicas}' > "$HARBOR_OUTPUT" """,
        args={"app": "S", "n": "N"},
    ),
    Case(
        "h17/safe/triage-bundle",
        False,
        run=r"""set -euo pipefail
out="$HARBOR_RUN_DIR/bundle"
mkdir -p "$out"
kubectl get pods -n "$ARG_ns" -o wide > "$out/pods.txt"
kubectl get events -n "$ARG_ns" --sort-by=.lastTimestamp > "$out/events.txt"
kubectl logs -n "$ARG_ns" -l "app=$ARG_app" --tail={{ args.n }} --prefix > "$out/logs.txt"
tar -czf "$HARBOR_RUN_DIR/bundle.tgz" -C "$out" .""",
        args={"ns": "S", "app": "S", "n": "N"},
    ),
    Case(
        "h17/safe/env-i-fixed-names",
        False,
        run=r"""env -i PATH=/usr/bin:/bin HOME=/tmp NAME="$ARG_x" python3 -c 'import os; print(os.environ["NAME"])'""",
    ),
    Case(
        "h17/safe/date-epoch-int",
        False,
        run=r"""date -u -d "@{{ args.n }}" +%Y-%m-%dT%H:%M:%SZ""",
        args={"n": "N"},
    ),
    Case(
        "h17/safe/redis-get-key",
        False,
        run=r"""redis-cli -h cache.internal --no-raw GET "session:$ARG_x" """,
    ),
    Case(
        "h17/safe/du-sort-top",
        False,
        run=r"""du -sh -- "/srv/data/$ARG_x"/* 2>/dev/null | sort -h | tail -n {{ args.n }}""",
        args={"x": "S", "n": "N"},
    ),
    Case("h17/safe/stat-size", False, run=r"""stat -c '%s %n' -- "$ARG_x" """),
    Case("h17/safe/wc-lines-redirect", False, run=r"""wc -l < "/var/log/app/$ARG_x" """),
    Case(
        "h17/safe/sha256-check-release",
        False,
        run=r"""cd /srv/releases && sha256sum -c -- "{{ args.v }}.sha256" """,
        args={"v": "P"},
    ),
    Case(
        "h17/safe/diff-configs",
        False,
        run=r"""diff -u -- "config/{{ args.a }}.yaml" "config/{{ args.b }}.yaml" || true""",
        args={"a": "F", "b": "F"},
    ),
    Case(
        "h17/safe/terraform-workspace-plan",
        False,
        run=r"""terraform -chdir=infra workspace select {{ args.ws }}
terraform -chdir=infra plan -input=false -var "image_tag={{ args.v }}" """,
        args={"ws": "P", "v": "P"},
    ),
    Case(
        "h17/safe/openssl-cert-dates",
        False,
        run=r"""echo | openssl s_client -connect "{{ args.host }}:443" -servername "{{ args.host }}" 2>/dev/null | openssl x509 -noout -dates""",
        args={"host": "P"},
    ),
    Case(
        "h17/safe/dig-pattern-host",
        False,
        run=r"""dig +short "{{ args.host }}" A""",
        args={"host": "P"},
    ),
    Case(
        "h17/safe/rm-cache-pattern-key",
        False,
        run=r"""rm -f -- "/tmp/cache/{{ args.key }}.json" """,
        args={"key": "P"},
    ),
    Case(
        "h17/safe/int-in-dquotes-raw",
        False,
        run=r"""echo "scaling to {{ args.n }} replicas"
kubectl scale -n staging --replicas={{ args.n }} deployment/api""",
        args={"n": "N"},
    ),
    Case(
        "h17/safe/git-log-noquote-grep",
        False,
        run=r"""git log --grep='{{ args.x }}' --oneline -n 20""",
        args={"x": "NOQUOTE"},
    ),
    # ---- argv: steps (no shell) -----------------------------------------------------------
    Case(
        "h17/safe/argv-git-log",
        False,
        argv=["git", "log", "--oneline", "-n", "{{ args.n }}", "--", "{{ args.x }}"],
        args={"n": "N", "x": "S"},
    ),
    Case(
        "h17/safe/argv-kubectl-get",
        False,
        argv=[
            "kubectl",
            "get",
            "pods",
            "-n",
            "{{ args.ns }}",
            "-l",
            "app={{ args.app }}",
            "-o",
            "wide",
        ],
        args={"ns": "S", "app": "S"},
    ),
    Case(
        "h17/safe/argv-grep-e-dash",
        False,
        argv=["grep", "-rn", "-e", "{{ args.x }}", "--", "src"],
        args={"x": "D"},
    ),
    Case(
        "h17/safe/argv-jq-arg-dash",
        False,
        argv=[
            "jq",
            "-r",
            "--arg",
            "q",
            "{{ args.x }}",
            ".[] | select(.name == $q) | .id",
            "inventory.json",
        ],
        args={"x": "D"},
    ),
    Case(
        "h17/safe/argv-python-c-argv",
        False,
        argv=["python3", "-c", "import sys; print(sys.argv[1][::-1])", "{{ args.x }}"],
        args={"x": "D"},
    ),
    Case(
        "h17/safe/argv-curl-urlencode",
        False,
        argv=[
            "curl",
            "-fsS",
            "--get",
            "--data-urlencode",
            "q={{ args.x }}",
            "https://search.internal/api",
        ],
    ),
    Case(
        "h17/safe/argv-docker-logs",
        False,
        argv=["docker", "logs", "--tail", "{{ args.n }}", "{{ args.c }}"],
        args={"n": "N", "c": "S"},
    ),
    Case(
        "h17/safe/argv-ssh-pattern-host",
        False,
        argv=["ssh", "-o", "BatchMode=yes", "--", "{{ args.host }}", "uptime"],
        args={"host": "P"},
    ),
    Case(
        "h17/safe/argv-sha256sum-dash",
        False,
        argv=["sha256sum", "--", "{{ args.x }}"],
        args={"x": "D"},
    ),
    Case(
        "h17/safe/argv-date-epoch",
        False,
        argv=["date", "-u", "-d", "@{{ args.n }}", "+%FT%TZ"],
        args={"n": "N"},
    ),
    Case(
        "h17/safe/argv-sh-c-dollar1",
        False,
        argv=["sh", "-c", 'grep -c -- "$1" /var/log/app/app.log', "_", "{{ args.x }}"],
        args={"x": "D"},
    ),
    Case("h17/safe/argv-git-show", False, argv=["git", "show", "--stat", "{{ args.x }}", "--"]),
    Case("h17/safe/argv-tar-list", False, argv=["tar", "-tzf", "/srv/backups/{{ args.x }}.tgz"]),
    # pytest parses -k itself (no eval since pytest 6)
    Case(
        "h17/safe/argv-pytest-k",
        False,
        argv=["python3", "-m", "pytest", "-q", "-k", "{{ args.x }}", "tests/"],
    ),
    Case(
        "h17/safe/argv-systemctl-enum",
        False,
        argv=["systemctl", "--no-pager", "status", "app-{{ args.e }}.service"],
        args={"e": "E"},
    ),
    Case(
        "h17/safe/argv-git-C-pattern",
        False,
        argv=["git", "-C", "/srv/repos/{{ args.x }}", "log", "-n", "5", "--oneline"],
        args={"x": "P"},
    ),
    Case(
        "h17/safe/argv-kubectl-logs",
        False,
        argv=[
            "kubectl",
            "logs",
            "-n",
            "{{ args.ns }}",
            "deploy/{{ args.app }}",
            "--tail={{ args.n }}",
        ],
        args={"ns": "S", "app": "S", "n": "N"},
    ),
    Case("h17/safe/argv-rg-fixed", False, argv=["rg", "-n", "-F", "--", "{{ args.x }}", "src"]),
]

DANGEROUS: list[Case] = [
    # ---- quoting mistakes ---------------------------------------------------------
    # shlex's single quotes are literal inside "…": $(…) in the value runs
    Case(
        "h17/d/shellquote-in-dquotes",
        True,
        run=r"""echo "searching for {{ args.x | shellquote }}" """,
    ),
    Case("h17/d/raw-in-squotes", True, run=r"""grep -rn '{{ args.x }}' src/"""),
    Case("h17/d/raw-unquoted", True, run=r"""git log --oneline -- {{ args.x }}"""),
    Case("h17/d/raw-in-dquotes", True, run=r"""kubectl get pods -l "app={{ args.x }}" """),
    # single quotes are not special in a here-doc body: $(…) inside shlex's quotes runs
    Case(
        "h17/d/shellquote-in-heredoc",
        True,
        run=r"""cat <<EOF > "$HARBOR_RUN_DIR/notes.md"
release {{ args.x | shellquote }}
EOF""",
    ),
    # "x -r /home/me": word splitting hands rm extra options
    Case("h17/d/unquoted-env-split-rm", True, run=r"""cd /tmp/cache && rm -f $ARG_x"""),
    # "a --checkpoint=1 --checkpoint-action=exec=touch${IFS}/tmp/p": splitting gives tar options that run a command
    Case(
        "h17/d/unquoted-env-split-tar", True, run=r"""tar -czf "$HARBOR_RUN_DIR/out.tgz" $ARG_x"""
    ),
    # NOQUOTE excludes ' only: $(…) still runs inside "…"
    Case(
        "h17/d/noquote-in-dquotes",
        True,
        run=r"""echo "ticket: {{ args.x }}" """,
        args={"x": "NOQUOTE"},
    ),
    # ^[a-z]+|.*$ matches any string: the pattern does not constrain the value
    Case("h17/d/raw-loose-pattern", True, run=r"""git checkout {{ args.x }}""", args={"x": "U"}),
    # the first ' of shlex's output closes bash -c's single-quoted script
    Case(
        "h17/d/shellquote-in-squoted-script",
        True,
        run=r"""bash -c 'git log -n 5 -- {{ args.x | shellquote }}'""",
    ),
    Case(
        "h17/d/awk-program-splice",
        True,
        run=r"""awk -F: '$1 == "'"$ARG_x"'" { print $7 }' /etc/passwd""",
    ),
    # ---- eval, sh -c, remote shells ------------------------------------------------
    Case("h17/d/eval-env", True, run=r"""eval "kubectl get pods -n $ARG_x" """),
    Case(
        "h17/d/sh-c-dquoted-script",
        True,
        run=r"""sh -c "grep -c -- '$ARG_x' /var/log/app/app.log" """,
    ),
    # ssh joins its words and the remote shell parses them: quoting here does not survive
    Case(
        "h17/d/ssh-remote-words",
        True,
        run=r"""ssh -o BatchMode=yes -- web1.internal tail -n 50 -- "$ARG_x" """,
    ),
    Case("h17/d/su-c", True, run=r"""su -s /bin/sh app -c "cd /srv/app && git checkout $ARG_x" """),
    Case(
        "h17/d/trap-string",
        True,
        run=r"""trap "echo cleanup for $ARG_x" EXIT
kubectl get pods""",
    ),
    Case(
        "h17/d/pipe-to-bash",
        True,
        run=r"""printf 'kubectl rollout undo deployment/%s\n' "$ARG_x" | bash""",
    ),
    # xargs -I puts the value into sh -c's script text
    Case(
        "h17/d/xargs-I-sh-c",
        True,
        run=r"""printf '%s\n' "$ARG_x" | xargs -I{} sh -c 'grep -c {} /var/log/app/app.log'""",
    ),
    Case("h17/d/docker-exec-sh-c", True, run=r"""docker exec app sh -c "cat /app/logs/$ARG_x" """),
    Case(
        "h17/d/kubectl-exec-sh-c",
        True,
        run=r"""kubectl exec -n prod deploy/app -- sh -c "ls -l /data/$ARG_x" """,
    ),
    # the unquoted here-doc expands the value locally, then the remote bash parses it
    Case(
        "h17/d/ssh-heredoc-script",
        True,
        run=r"""ssh -- web1.internal bash -s <<EOF
cd /srv/app && git log -n 5 -- "$ARG_x"
EOF""",
    ),
    # NOQUOTE stays inside the outer '…', but sh parses the script: $(…) runs
    Case(
        "h17/d/noquote-in-sh-c-script",
        True,
        run=r"""sh -c 'grep -c {{ args.x }} /var/log/app/app.log'""",
        args={"x": "NOQUOTE"},
    ),
    Case("h17/d/eval-printf-s", True, run=r"""eval "$(printf 'export TAG=%s' "$ARG_x")" """),
    # ---- other interpreters' programs ---------------------------------------------
    Case(
        "h17/d/python-c-splice",
        True,
        run=r"""python3 -c "import json; print(json.dumps({'name': '$ARG_x'}))" """,
    ),
    Case("h17/d/node-e-splice", True, run=r"""node -e "console.log('hello $ARG_x')" """),
    # @{[ system … ]} in the replacement runs
    Case(
        "h17/d/perl-replacement-splice",
        True,
        run=r"""perl -pi -e "s/\@VERSION\@/$ARG_x/g" deploy/app.yaml""",
    ),
    # "a/e touch /tmp/p #": sed's e command runs a shell command
    Case("h17/d/sed-address-splice", True, run=r"""sed -n "/$ARG_x/p" /var/log/app/app.log"""),
    Case(
        "h17/d/jq-filter-splice",
        True,
        run=r"""jq -r ".services[\"$ARG_x\"].url" config/services.json""",
    ),
    Case(
        "h17/d/psql-c-splice",
        True,
        run=r"""psql -X -c "select * from deploys where app = '$ARG_x'" """,
    ),
    Case(
        "h17/d/sqlite-splice",
        True,
        run=r"""sqlite3 /srv/app/app.db "select count(*) from jobs where state = '$ARG_x'" """,
    ),
    Case(
        "h17/d/python-unquoted-heredoc",
        True,
        run=r"""python3 - <<EOF
print("$ARG_x".upper())
EOF""",
    ),
    # "../../tmp/uploads/x.awk": the caller chooses the awk program file
    Case(
        "h17/d/awk-f-caller-file", True, run=r"""awk -f "scripts/$ARG_x" /var/log/app/access.log"""
    ),
    Case("h17/d/python-caller-script", True, run=r"""python3 "tools/$ARG_x" """),
    # NOQUOTE cannot leave the single quotes, but it is awk program text
    Case(
        "h17/d/noquote-awk-program",
        True,
        run=r"""awk '/{{ args.x }}/ { c++ } END { print c }' /var/log/app/app.log""",
        args={"x": "NOQUOTE"},
    ),
    # ---- option injection -------------------------------------------------------------
    # "-oProxyCommand=…" runs a local command
    Case(
        "h17/d/ssh-host-dash",
        True,
        run=r"""ssh -o BatchMode=yes "$ARG_x" uptime""",
        args={"x": "D"},
    ),
    # "--to-command=…" runs a command per member
    Case(
        "h17/d/tar-member-dash",
        True,
        run=r"""tar -xf /srv/backups/app.tar "$ARG_x" """,
        args={"x": "D"},
    ),
    # "--output=/home/me/.bashrc"
    Case(
        "h17/d/git-log-dash",
        True,
        run=r"""git log -n 5 {{ args.x | shellquote }}""",
        args={"x": "D"},
    ),
    # "-delete" becomes find's expression
    Case(
        "h17/d/find-start-dash",
        True,
        run=r"""find "$ARG_x" -name '*.tmp' -print""",
        args={"x": "D"},
    ),
    # "-K/path", "-o/path": curl options
    Case(
        "h17/d/curl-url-dash", True, run=r"""curl -fsS {{ args.x | shellquote }}""", args={"x": "D"}
    ),
    # "--upload-pack=…" runs a command (checked with a local repository)
    Case(
        "h17/d/git-clone-url-dash",
        True,
        run=r"""git clone {{ args.url | shellquote }} /tmp/ws/app""",
        args={"url": "D"},
    ),
    # -1 signals every process the user may signal
    Case("h17/d/kill-negative-int", True, run=r"""kill -TERM {{ args.x }}""", args={"x": "I"}),
    # f="-va[$(cmd)]": printf -v NAME with a subscript runs cmd (checked)
    Case(
        "h17/d/printf-format-dash",
        True,
        run=r"""printf "$ARG_f" "$ARG_v" """,
        args={"f": "D", "v": "S"},
    ),
    # xargs splits on blanks: "HEAD --output=/home/me/.bashrc"
    Case("h17/d/xargs-split-options", True, run=r"""echo "$ARG_x" | xargs git log -n 1"""),
    Case("h17/d/argv-git-log-dash", True, argv=["git", "log", "{{ args.x }}"], args={"x": "D"}),
    # ---- wrappers ----------------------------------------------------------------------
    Case("h17/d/timeout-program", True, run=r"""timeout 30 "$ARG_x" --version"""),
    Case(
        "h17/d/xargs-program",
        True,
        run=r"""printf '%s\0' /var/log/app/*.log | xargs -0 "$ARG_x" """,
    ),
    Case("h17/d/env-program", True, run=r"""env LANG=C "$ARG_x" --help"""),
    Case(
        "h17/d/find-exec-program",
        True,
        run=r"""find /var/log/app -name '*.log' -exec {{ args.x | shellquote }} {} +""",
    ),
    Case("h17/d/sudo-program", True, run=r"""sudo -n -u app -- "$ARG_x" status"""),
    Case("h17/d/nohup-program", True, run=r"""nohup "$ARG_x" >/dev/null 2>&1 &"""),
    Case(
        "h17/d/kubectl-exec-program",
        True,
        run=r"""kubectl exec -n prod deploy/app -- "$ARG_x" --version""",
    ),
    # "PATH=/tmp/uploads" or "LD_PRELOAD=…" as env's assignment, or a program name
    Case("h17/d/argv-env-word", True, argv=["env", "{{ args.x }}", "make", "test"]),
    # ---- caller-chosen command ----------------------------------------------------------
    Case(
        "h17/d/command-position-env",
        True,
        run=r"""set -e
"$ARG_x" --version""",
    ),
    Case(
        "h17/d/command-position-shellquote",
        True,
        run=r"""{{ args.x | shellquote }} status --short""",
    ),
    Case(
        "h17/d/command-via-variable",
        True,
        run=r"""tool="$ARG_x"
"$tool" -n 5""",
    ),
    # the default branch does not exit: "../../tmp/uploads/x" reaches the command word
    Case(
        "h17/d/case-fallthrough-dispatch",
        True,
        run=r"""case "$ARG_x" in
  lint|test) ;;
  *) echo "unknown task $ARG_x" >&2 ;;
esac
"./scripts/$ARG_x.sh" """,
    ),
    Case("h17/d/argv-program", True, argv=["{{ args.x }}", "--version"]),
    # "x:=$(shell touch /tmp/p)" is a make assignment, expanded at once (checked)
    Case(
        "h17/d/make-target-string", True, run=r"""make -C services/api {{ args.x | shellquote }}"""
    ),
    # make expands $(shell …) in TAG's value where the Makefile uses $(TAG) (checked)
    Case("h17/d/make-var-string", True, run=r"""make build TAG="$ARG_x" """),
    # ---- arithmetic with strings ----------------------------------------------------------
    Case("h17/d/arith-env-string", True, run=r"""echo $(( ARG_x + 1 ))"""),
    Case(
        "h17/d/dbl-bracket-gt-string", True, run=r"""[[ "$ARG_x" -gt 5 ]] && echo "more than 5" """
    ),
    Case(
        "h17/d/let-string",
        True,
        run=r"""let "n = $ARG_x * 2"
echo "$n" """,
    ),
    Case(
        "h17/d/declare-i-string",
        True,
        run=r"""declare -i n
n="$ARG_x"
echo "$n" """,
    ),
    Case(
        "h17/d/array-index-string",
        True,
        run=r"""envs=(dev staging prod)
echo "${envs[$ARG_x]}" """,
    ),
    Case(
        "h17/d/substring-offset-string",
        True,
        run=r"""sha=$(git rev-parse HEAD)
printf '%s\n' "${sha:0:$ARG_x}" """,
    ),
    # p="ARG_s" names a variable whose value (a[$(cmd)]) arithmetic evaluates
    Case(
        "h17/d/arith-pattern-names-variable",
        True,
        run=r"""(( {{ args.p }} > 0 )) && echo positive""",
        args={"p": "P", "s": "S"},
    ),
    # ---- code-selecting variables ----------------------------------------------------------
    Case(
        "h17/d/git-ssh-command",
        True,
        run=r"""export GIT_SSH_COMMAND="ssh -i $ARG_x -o BatchMode=yes"
git fetch origin""",
    ),
    Case("h17/d/ld-preload", True, run=r"""LD_PRELOAD="$ARG_x" ls -l /srv/app"""),
    Case(
        "h17/d/path-prepend",
        True,
        run=r"""export PATH="$ARG_x:$PATH"
make test""",
    ),
    Case(
        "h17/d/ps4-xtrace",
        True,
        run=r"""PS4="+ $ARG_x "
set -x
kubectl get pods""",
    ),
    # "core.fsmonitor=touch /tmp/p"
    Case("h17/d/git-c-string", True, run=r"""git -c "$ARG_x" status --short"""),
    # the caller chooses the variable: LD_PRELOAD, BASH_ENV, PATH…
    Case(
        "h17/d/export-caller-name",
        True,
        run=r"""export "$ARG_k=$ARG_v"
make test""",
        args={"k": "IDENT", "v": "S"},
    ),
    Case("h17/d/node-options", True, run=r"""NODE_OPTIONS="$ARG_x" node scripts/build.js"""),
    Case("h17/d/bash-env", True, run=r"""BASH_ENV="$ARG_x" bash scripts/check.sh"""),
    # ---- names -------------------------------------------------------------------------------
    Case("h17/d/printf-v-name", True, run=r"""printf -v "$ARG_x" '%s' ready"""),
    Case("h17/d/read-into-name", True, run=r"""read -r "$ARG_x" <<< "value" """),
    Case("h17/d/test-v-name", True, run=r"""if [ -v "$ARG_x" ]; then echo set; fi"""),
    Case("h17/d/indirect-expansion", True, run=r"""printf '%s\n' "${!ARG_x}" """),
    Case(
        "h17/d/declare-nameref",
        True,
        run=r"""declare -n ref="$ARG_x"
printf '%s\n' "$ref" """,
    ),
    # ---- files written then run or sourced ---------------------------------------------------
    Case(
        "h17/d/source-written-env",
        True,
        run=r"""printf 'VERSION=%s\n' "$ARG_x" > "$HARBOR_RUN_DIR/build.env"
. "$HARBOR_RUN_DIR/build.env" """,
    ),
    Case(
        "h17/d/heredoc-script-then-bash",
        True,
        run=r"""cat > "$HARBOR_RUN_DIR/undo.sh" <<EOF
kubectl rollout undo deployment/$ARG_x
EOF
bash "$HARBOR_RUN_DIR/undo.sh" """,
    ),
    Case("h17/d/source-procsub", True, run=r""". <(printf 'export TAG=%s\n' "$ARG_x")"""),
    # "../../tmp/uploads/x": the caller chooses the sourced file
    Case("h17/d/source-caller-path", True, run=r"""source "config/$ARG_x.sh" """),
    Case(
        "h17/d/written-script-executed",
        True,
        run=r"""printf '#!/bin/sh\nexec kubectl get pods -l app=%s\n' "$ARG_x" > "$HARBOR_RUN_DIR/q.sh"
chmod +x "$HARBOR_RUN_DIR/q.sh"
"$HARBOR_RUN_DIR/q.sh" """,
    ),
    # ---- parser tricks --------------------------------------------------------------------------
    # v="EOF" ends the here-doc (P admits it), then w's line is a command: w="reboot"
    Case(
        "h17/d/heredoc-terminator-pattern",
        True,
        run=r"""cat <<'EOF' > "$HARBOR_RUN_DIR/release.txt"
{{ args.v }}
{{ args.w }}
EOF""",
        args={"v": "P", "w": "P"},
    ),
    # "` touch /tmp/p `": the value's backquote ends the command substitution (checked)
    Case(
        "h17/d/shellquote-in-backticks",
        True,
        run=r"""v=`git describe --tags {{ args.x | shellquote }} 2>/dev/null || true`
echo "$v" """,
    ),
    # ";touch /tmp/p #": \ escapes shlex's opening quote (checked)
    Case(
        "h17/d/shellquote-after-backslash", True, run=r"""echo ticket\{{ args.x | shellquote }}"""
    ),
    # a multiline value ends the comment: "a\ntouch /tmp/p #" (checked)
    Case(
        "h17/d/comment-multiline",
        True,
        run=r"""# note: {{ args.x | shellquote }}
git status --short""",
        args={"x": "M"},
    ),
    # "x\nEOF\ntouch /tmp/p"
    Case(
        "h17/d/quoted-heredoc-multiline-raw",
        True,
        run=r"""cat <<'EOF' > "$HARBOR_RUN_DIR/notes.txt"
{{ args.x }}
EOF""",
        args={"x": "M"},
    ),
    # ssh joins argv elements into the remote command line
    Case(
        "h17/d/argv-ssh-remote-words",
        True,
        argv=[
            "ssh",
            "--",
            "web1.internal",
            "grep",
            "-c",
            "--",
            "{{ args.x }}",
            "/var/log/app/app.log",
        ],
    ),
    Case("h17/d/argv-sh-c-script", True, argv=["sh", "-c", "tail -n 20 /var/log/app/{{ args.x }}"]),
    Case("h17/d/argv-python-c-program", True, argv=["python3", "-c", "print('{{ args.x }}')"]),
]

HELDOUT17: list[Case] = SAFE + DANGEROUS
