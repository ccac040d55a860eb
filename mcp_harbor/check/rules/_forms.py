"""How caller data is written where a rule finds it, so that a finding's
reason names the form the line really has: a placeholder, ``$ARG_x``, a
variable carrying an arg's data, ``$(…)``, or a bare name that bash reads
in arithmetic (``ARG_x`` in ``$(( ARG_x * 2 ))``, where no ``$`` is
written and nothing is split).

Guarantee: `shown` never names a ``$`` form for an occurrence that has no
``$`` in the script text, and names the variable for a value that is not
the arg's own text (`derived`)."""

from __future__ import annotations

from mcp_harbor.check._facts import Occ, Word

__all__ = ["arithmetic_name", "derived", "shown", "word_text"]

#: tree-sitter node types of a name read without `$` (inside arithmetic)
_BARE_NAME_NODES = frozenset({"variable_name", "word"})


#: Caller data the analysis finds where no variable is written: what it is.
_SYNTHETIC = {
    "xargs": "an item `xargs` reads from its input",
    "{}": "a file name `find` puts at `{}`",
    "*": "the file names a glob lists",
    "output": "what the program before it in the pipe prints",
    "file": "a file a step may have written",
}


def arithmetic_name(occ: Occ) -> bool:
    """`occ` is a bare variable name that bash evaluates as arithmetic
    (``ARG_x`` in ``$(( ARG_x * 2 ))``, ``(( ))``, a subscript): no ``$`` is
    written, and what reaches the command line is the number the
    arithmetic yields, never the variable's text."""
    return occ.kind == "env" and occ.node is not None and occ.node.type in _BARE_NAME_NODES


def derived(occ: Occ) -> bool:
    """The value of `occ` is not the arg's own text but something computed
    from it: a variable other than ``ARG_<arg>`` assigned from caller data,
    or a command substitution's output."""
    return occ.kind == "env" and occ.var is not None and occ.var != f"ARG_{occ.arg}"


def shown(occ: Occ) -> str:
    """`occ` as the reason of a finding names it (Markdown code spans)."""
    if occ.kind == "raw":
        return f"the placeholder `{{{{ args.{occ.arg} }}}}`"
    if occ.kind == "sq":
        return f"the placeholder `{{{{ args.{occ.arg} | shellquote }}}}`"
    if arithmetic_name(occ):
        return f"the name `{occ.var}` (read in arithmetic)"
    origin = f"from arg {occ.arg!r}" if occ.arg else "not proven to be the author's"
    if occ.var in _SYNTHETIC:
        return f"{_SYNTHETIC[occ.var]} ({origin})"
    if occ.var == "$(…)":
        return f"the output of `$(…)` ({origin})"
    if occ.node is not None and occ.node.type == "expansion" and occ.node.text is not None:
        text = occ.node.text.decode("utf-8", "replace")
        if text != f"${{{occ.var}}}":
            return f"`{text[:40]}` ({origin})"  # ${x#…}, ${!x}…: the form the line has
    if derived(occ) or not occ.arg:
        return f"`${occ.var}` ({origin})"
    return f"`${occ.var}`"


def word_text(word: Word) -> bytes | None:
    """The script text of `word` (quotes included), or None when the
    analysis built the word without a node of its own (an ``argv:``
    element, a word it joined)."""
    if not word.occs or word.end <= word.start:
        return None
    node = word.occs[0].node
    while node is not None and not (node.start_byte == word.start and node.end_byte == word.end):
        if node.start_byte < word.start or node.end_byte > word.end:
            return None
        node = node.parent
    if node is None:
        return None
    return node.text
