"""The runtime names a script reads (``ARG_*``, ``STEP_*``) and the names it
assigns itself, for H011 (`mcp_harbor.check.rules.UndeclaredReference`).

Guarantee: every read `references` returns is a place where bash reads the
variable by name (``$V``, ``${V…}``, or a bare name bash evaluates as
arithmetic; `mcp_harbor.check._tree.Parsed.reads`), and no name the script
assigns, loops over, declares or reads into anywhere in its text is
returned."""

from __future__ import annotations

from mcp_harbor.check._tree import IDENT, node_text, parsed

__all__ = ["references"]

_PREFIXES = ("ARG_", "STEP_")


def references(text: str) -> list[tuple[str, int]]:
    """The reads of ``ARG_*`` and ``STEP_*`` variables in the script `text`
    that the script does not assign itself: ``(name, byte offset)``, in
    document order."""
    if "ARG_" not in text and "STEP_" not in text:
        return []
    script = parsed(text)
    own = _assigned(text)
    out: list[tuple[str, int]] = []
    for node, name, _expansion in script.reads():
        if name is not None and name.startswith(_PREFIXES) and name not in own:
            out.append((name, node.start_byte))
    return out


def _assigned(text: str) -> frozenset[str]:
    """Every name `text` gives a value: assignments (``A=…``, ``a[i]=…``),
    ``for`` variables, and identifier operands of commands and declarations
    (``read NAME``, ``local NAME``, ``printf -v NAME``)."""
    script = parsed(text)
    src = script.src
    names: set[str] = set()
    for node in script.nodes:
        kind = node.type
        if kind == "variable_assignment":
            target = node.child_by_field_name("name")
            if target is not None and target.type == "subscript":
                target = target.child_by_field_name("name")
            if target is not None:
                names.add(node_text(src, target))
        elif kind in ("for_statement", "c_style_for_statement"):
            var = node.child_by_field_name("variable")
            if var is not None:
                names.add(node_text(src, var))
        elif kind in ("command", "declaration_command"):
            for arg in node.children:
                word = node_text(src, arg)
                if IDENT.fullmatch(word):
                    names.add(word)
    return frozenset(n for n in names if n.startswith(_PREFIXES))
