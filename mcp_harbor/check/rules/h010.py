"""Rule H010 (secret-printed)."""

from __future__ import annotations

from typing import ClassVar, Literal

from mcp_harbor.check._facts import Hazard, Located
from mcp_harbor.check.rules._base import Rule

__all__ = ["SecretPrinted"]


class SecretPrinted(Rule):
    r"""A `secrets:` value can be printed: traced, dumped, echoed or written to an output.

    ## What it does
    Refuses an export with `secrets:` whose `run:` script lets a secret's
    value (`$API_TOKEN`, `${API_TOKEN…}`, or a variable assigned from it,
    followed to a fixpoint) reach a place that prints it:

    - a trace anywhere in the script: `set -x`, `set -v`, `set -o xtrace`
      or `verbose`, `shopt -so xtrace`, `bash -x`, setting `SHELLOPTS` or
      `BASH_XTRACEFD` (a trace prints every expanded word, so every use of
      the secret);
    - a dump: `declare -p`, `typeset -p`, `export -p`, `local -p`,
      `readonly -p` with no operand, naming the secret or a name the checker
      cannot read (`declare -p "$v"` after `compgen -e`); `declare`,
      `export` or `readonly` alone; `set` with no arguments; `env` or
      `printenv` with no operand, or `printenv API_TOKEN`;
    - the arguments of `echo` or `printf`, or a here-string or
      here-document read by `cat` (or `tee`, `head`, `sed`, `base64`…),
      when what they print ends, through the pipeline and every enclosing
      redirection, on the step's stdout or stderr, in a step output
      (`>> "$HARBOR_STEP_OUTPUT"`, `$HARBOR_OUTPUT`) or in a file outside
      the run directory.

    - any other program, unless it takes the value where it takes a
      credential (`mcp_harbor/check/credentials.py`, one entry per program
      with its source: `curl -H`/`-u`/`--data`/the URL, `wget --header`,
      `PGPASSWORD` for psql, `MYSQL_PWD`, the `AWS_*` keys for aws,
      `GH_TOKEN` for gh, `docker login --password-stdin`, a digest such as
      `sha256sum`) or the secret's entry names it
      (`programs: [deploy-tool]`), when what it prints reaches the step's
      output: an argument (`ls "$TOKEN"` quotes it in its error), the
      environment of one command (`T="$TOKEN" python3 -c …` may print
      `os.environ`), its standard input (a pipe into a program that copies
      what it reads), or an `argv:` step without a placeholder, which gets
      every secret in its environment, whose program is a language or has
      no grammar. An option that prints the request (`curl -v`, `--trace`,
      `-w`) takes the credential place away;
    - a file a secret was written to (or one a program keeps the credential
      it took in: `docker login`'s `~/.docker/config.json`, `helm registry
      login`'s, `gh auth login`'s `hosts.yml`), given to a program (an
      operand, its stdin) that does not read it as a credential file (`curl -K FILE`,
      `-H @FILE`, `ssh -i FILE`, `docker login --password-stdin < FILE`)
      and may print what it reads; a program that never prints a file's
      content (`rm`, `chmod`, `stat`, `ls`, a digest) may have it;
    - `export` (or `declare -x`) of a secret: every later program's
      environment holds it;
    - any program that gets the secret while the caller chooses where it
      connects: a URL's host, port or userinfo (also through a variable the
      URL was built in, and an operand its grammar reads as a URL, such as
      curl's, with caller data and no scheme or `/` of the author's before
      it), a config file (`curl -K`) the caller filled (`curl -H "…$TOKEN"
      "https://$ARG_host/"`), and caller data, a number included, at any
      position its grammar does not read as data: a server, a port, a
      registry, a variable (`psql -p "$ARG_port"`, `PGPORT`, `VAULT_ADDR`,
      `docker login "$ARG_registry"`, an in-house program without a
      `programs:` entry): the secret would go to the caller, even for a
      program the secret's `programs:` names. An `enum` value is the
      author's text: a host it chooses is the author's;
    - the same value reached through a name reference (`local -n`),
      `${!v}`, `$_`, `BASH_REMATCH` or `printf -v`, and an assignment after
      `set -a`/`shopt -so allexport` (exported);
    - the secret told without being printed: a condition on a part of it
      (`[[ ${TOKEN:0:1} == a ]]`), a value made from it, a pattern
      (`[[ $TOKEN == ghp_* ]]`, `=~`, `case`) or arithmetic (`64#$TOKEN`
      reads it as a number), whose answers the script's output, exit code or
      next steps spell; and a file or folder named with it (`mkdir
      "$RUN/$TOKEN"`, `> "key-$TOKEN"`), which a listing prints. Only the
      whole secret compared for equality or emptiness is accepted, and its
      length (`${#TOKEN}`);
    - a program that follows redirects with the secret while the caller
      chooses the path it asks for (`wget` without `--max-redirect=0`,
      `curl -L` with a header other than `Authorization:` or `Cookie:`):
      the server's answer chooses where it goes; a credential kept in a
      file outside the run directory (`docker --config DIR login`, `kubectl
      config set-credentials --kubeconfig FILE`); a relative `{file:}`
      secret while another export served with it takes a path `within:`
      a folder (its caller may name that file);
    - a program that sends the secret where a file the caller filled says
      (`curl -K`, `wget -i`), or through a proxy or base URL the caller
      chooses (`--socks5`, `--proxy1.0`, `wget -e`/`-B`), and a credential
      file (`--netrc-file`, `-K`) read by a command whose host the caller
      chooses; an option that prints the request in a cluster (`-fsSv`) or
      in the config file the script wrote (`verbose`, `trace`);
    - a secret among a command's arguments while the script lists processes
      (`ps`, `pgrep`, `/proc/PID/cmdline`), and a file holding a secret
      reached by a glob or `find … -exec` over its folder.

    Beyond those places the value may go where nothing is printed:
    `$(…)` (the variable it is assigned to is followed), `/dev/null`, a
    file of the run directory, a command whose stdout and stderr are both
    discarded when it writes no file (one that may, `git hash-object -w`, a
    tool's cache, may keep the secret where a later command prints it).

    ## Why is this bad?
    Stdout, stderr and step outputs are returned to the caller and kept in
    the run directory and the audit trail. The scrubber replaces the forms
    of a secret that bash prints, but it is the second line: a trace of
    `[[ x == "$API_TOKEN" ]]` prints `\S\E\C\R\E\T`, and a value that a
    pipeline transforms (`| base64`, `| rev`) is beyond any scrubber. A
    file outside the run directory is not scrubbed at all.

    ## Example
    ```yaml
    secrets:
      API_TOKEN: {env: CI_API_TOKEN}
    steps:
      - name: call
        run: |
          set -x
          echo "using $API_TOKEN" >&2
          curl -H "Authorization: Bearer $API_TOKEN" https://api.example.com/
    ```

    ## Use instead
    ```yaml
    secrets:
      API_TOKEN: {env: CI_API_TOKEN}
    steps:
      - name: call
        run: |
          printf 'Authorization: Bearer %s\n' "$API_TOKEN" |
            curl --header @- https://api.example.com/
    ```
    Trace with `echo` lines that do not expand the secret, and give a
    program the value only where it takes a credential, or name an
    in-house program that never prints it in the secret's `programs:`.

    ## Known problems
    The credential places are the table's word on each program, and a
    secret's `programs:` is the author's: a program named there that prints
    the value is not seen. A destination's host is read as written, or in
    the one assignment of the variable a URL starts with; a host built
    through two variables is judged by the caller's data in it, and a
    config file (`curl -K`) that names one is not followed. A server that
    echoes a request back is beyond the checker. A nested `bash -c '…'`
    script in an `argv:` step is read as a script; one in a `run:` step is
    not. The follower over-approximates: in an export with secrets, a
    variable `read` assigns (but from a file, while no file can hold a
    secret) and a function's `$1` after a call with the secret count as
    carrying it. A redirection
    to an unknown file counts as outside the run directory; `exec >file`
    earlier in the script is not followed (the output counts as printed).

    ## References
    - CWE-532 (insertion of sensitive information into log file)
    - CWE-214 (invocation of process using visible sensitive information)
    - bash(1), `set -x`, `declare -p`
    """

    id: ClassVar[str] = "H010"
    name: ClassVar[str] = "secret-printed"
    summary: ClassVar[str] = (
        "A `secrets:` value can be printed: traced, dumped, echoed or written to an output."
    )
    severity: ClassVar[Literal["error", "warning"]] = "error"

    @classmethod
    def trace(cls, command: str, where: Located) -> Hazard:
        """The finding about `command`, which turns bash's trace on in a
        script of an export with secrets."""
        return cls.hazard(
            None,
            where,
            f"`{command}` traces the script, and a trace prints every expanded word, "
            'so every use of the export\'s secrets (`[[ … == "$S" ]]` prints '
            "`\\S\\E\\C…`)",
            "remove the trace; print what you need to see with `echo` lines that do not "
            "expand a secret",
        )

    @classmethod
    def dump(cls, command: str, destination: str, where: Located) -> Hazard:
        """The finding about `command`, which lists variables with their
        values (the secrets' among them) to `destination`."""
        return cls.hazard(
            None,
            where,
            f"`{command}` lists variables with their values, the export's secrets among "
            f"them, to {destination}",
            "list only the variables you need by name, or send the listing to /dev/null",
        )

    @classmethod
    def given(
        cls, variable: str, program: str, place: str, destination: str, where: Located
    ) -> Hazard:
        """The finding about `program` getting `variable` (a secret, or
        carrying one) at `place`, which no credential grammar names, while
        what it prints reaches `destination`."""
        return cls.hazard(
            None,
            where,
            f"`{program}` gets `{_shown(variable)}`, which holds a secret, {place}, which no "
            "grammar names as a place it takes a credential, and what it prints reaches "
            f"{destination} (an error quoting it, its environment, a copy of its input)",
            "give the secret only where the program takes a credential (`curl -H`, "
            "PGPASSWORD for psql, `docker login --password-stdin`), or, if the program "
            f"never prints it, name it in the secret's entry: `programs: [{program}]`",
        )

    @classmethod
    def exported(cls, variable: str, where: Located) -> Hazard:
        """The finding about `variable` (a secret, or carrying one) exported
        to every program the step starts after it."""
        return cls.hazard(
            None,
            where,
            f"`${variable}` holds a secret and is exported to every program the step starts "
            "after it, whatever each one does with its environment",
            f'give it to the one command that needs it: NAME="${variable}" command …',
        )

    @classmethod
    def printed(cls, variable: str, program: str, destination: str, where: Located) -> Hazard:
        """The finding about `program` printing `variable` (a secret, or
        carrying one) to `destination`."""
        return cls.hazard(
            None,
            where,
            f"`{program}` prints `{_shown(variable)}`, which holds a secret, to {destination}",
            f"give `${variable}` to the program that needs it as an argument, in its "
            "environment or on its standard input (`printf '%s' \"$S\" | prog "
            "--password-stdin`), never to the step's output",
        )


def _shown(variable: str) -> str:
    """`variable` as the script writes it (``$TOKEN``; ``$(…)`` as is)."""
    return variable if variable.startswith("$") or " " in variable else "$" + variable
