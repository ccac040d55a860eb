"""Rule W106 (unconfirmed-destructive-grant)."""

from __future__ import annotations

from typing import ClassVar, Literal

from mcp_harbor.check._facts import Hazard, Located
from mcp_harbor.check.rules._base import Rule

__all__ = ["UnconfirmedDestructiveGrant"]


class UnconfirmedDestructiveGrant(Rule):
    r"""An agent is granted an export that says it is destructive and asks no confirmation.

    ## What it does
    Warns when the `tools:` grant of an `agent:` step or of a `fix:` names
    another published export whose `annotations:` say `destructiveHint: true`
    and that has no `confirm:`. The warning is on the granting export, at
    the grant's line. It needs the whole set of exports, so it is reported
    by `mcp-harbor check` and at the server's start (`load_and_check`), not
    by the check of one export alone.

    A grant name is resolved in this order: this export's custom tools
    (`tools:` at the top of the file) first, then the published exports. A
    custom tool with the same name as an export hides that export from the
    grant, so this rule looks at an export only when no custom tool has
    its name.

    ## Why is this bad?
    An agent's input holds caller values and tool output, and a model can
    follow text it reads: an injection can trigger any action the caller
    could. A granted export is called through the caller's own call path
    (`allow:`, argument validation, `confirm:`), so a `confirm:` question
    stops a destructive call until a human answers it; without one, the
    model's call runs at once.

    ## Example
    ```yaml
    # deploy.yaml
    name: deploy
    annotations: {destructiveHint: true}
    steps: [{name: push, run: ./deploy.sh}]
    # triage.yaml
    steps:
      - name: triage
        agent: {model: coder, prompt: "Fix the build.", tools: [deploy]}
    ```

    ## Use instead
    ```yaml
    # deploy.yaml
    name: deploy
    annotations: {destructiveHint: true}
    confirm: Deploy now?
    steps: [{name: push, run: ./deploy.sh}]
    ```
    Or grant a narrower export that cannot destroy anything.

    ## Known problems
    Only an explicit `destructiveHint: true` is seen: MCP's default for a
    tool without annotations is "may be destructive", but an export without
    the hint is not warned about. A `fix:`'s zero-argument `rerun` tool and
    custom tools are not exports and are not annotated.

    ## References
    - OWASP Top 10 for LLM Applications, LLM06 Excessive Agency
    - MCP specification, tool annotations (`destructiveHint`)
    """

    id: ClassVar[str] = "W106"
    name: ClassVar[str] = "unconfirmed-destructive-grant"
    summary: ClassVar[str] = (
        "An agent is granted an export that says it is destructive and asks no confirmation."
    )
    severity: ClassVar[Literal["error", "warning"]] = "warning"

    @classmethod
    def detect(
        cls, granted: str, destructive: bool, confirmed: bool, where: Located
    ) -> Hazard | None:
        """The finding about a grant of export `granted`, which is
        `destructive` (``destructiveHint: true``) and `confirmed` (has a
        ``confirm:``), at `where` (the grant's entry)."""
        if not destructive or confirmed:
            return None
        return cls.hazard(
            None,
            where,
            f"the agent is granted export {granted!r}, which is destructive "
            "(destructiveHint: true) and has no confirm:; an injection can trigger any "
            "action the caller could",
            f"add a confirm: question to export {granted!r}, or remove {granted!r} from this grant",
        )
