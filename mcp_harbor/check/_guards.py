"""Guards: the tests a script makes of a value before it uses it.

``[[ $n =~ ^[0-9]+$ ]] && (( n > 3 ))``, ``if [[ $n =~ ^[0-9]+$ ]]; then
…; fi``, ``[[ $n =~ ^[0-9]+$ ]] || exit 1``: bash itself shows the name to
hold digits where the use runs (bash(1), Conditional Expressions: ``=~``
matches an extended regular expression; an anchored digits-only one
matches digits alone). `matched_digits` answers for one use; the analysis
gives such a use the model of a number (`mcp_harbor.check._taint`).

Guarantees: pure (a function of the script's tree); a use is said to hold
digits only on a path where the test held and nothing assigned the name
since (any assignment, ``read``, loop, function or ``printf -v`` of it in
between says no).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Collection, Sequence

from tree_sitter import Node

from mcp_harbor.check._tree import ancestors, node_text, walk
from mcp_harbor.check._values import ValueModel, pattern_model

__all__ = ["assigned_arithmetic", "matched_digit_group", "matched_digits"]


#: A ``[[ =~ ]]`` regular expression that only digits match whole (an
#: optional leading ``-``): what it matched is a number to arithmetic.
_DIGITS_REGEX = re.compile(
    r"\^(?:-\??|\[-\]\?)?"
    r"(?:\[0-9\]|\[\[:digit:\]\])(?:\+|\*|\{[0-9]+(?:,[0-9]*)?\})\$"
)
#: The same without a sign: what it matched cannot start with ``-``.
_UNSIGNED_REGEX = re.compile(r"\^(?:\[0-9\]|\[\[:digit:\]\])(?:\+|\*|\{[0-9]+(?:,[0-9]*)?\})\$")
#: What runs in a process of its own: a ``continue`` there leaves no loop
#: of the script's.
_OWN_PROCESS = frozenset({"subshell", "command_substitution", "process_substitution"})
#: A capturing group that matches digits alone.
_DIGITS_GROUP = re.compile(
    r"(?:(?:\[(?:[0-9](?:-[0-9])?)+\]|\[\[:digit:\]\]|[0-9])(?:[+*?]|\{[0-9]+(?:,[0-9]*)?\})?)+"
)
#: Builtins that assign the names they are given.
_ASSIGNING = frozenset(
    {"read", "mapfile", "readarray", "let", "declare", "typeset", "local", "export",
     "readonly", "unset", "printf", "getopts"}
)  # fmt: skip


#: A name reference (``declare -n``, ``local -n``, ``typeset -n``).
_NAMEREF = re.compile(rb"\b(?:declare|local|typeset)\b[^\n;|&]*\s-[A-Za-z]*n")
#: ``BASH_REMATCH`` named as a variable (not read through ``$``).
_REMATCH_WORD = re.compile(r"(?<![$\w{#!])BASH_REMATCH\b")
#: One ``$NAME =~ REGEX`` of a ``[[ ]]`` read from its text (tree-sitter
#: misreads ``[[ $a =~ r && $b =~ r ]]`` and ``[[ ! $a =~ r ]]``).
_MATCH_PART = re.compile(
    r"(?:\"\$\{?(?P<quoted>[A-Za-z_][A-Za-z0-9_]*)\}?\"|\$\{?(?P<bare>[A-Za-z_][A-Za-z0-9_]*)\}?)"
    r"\s*=~\s*(?P<regex>(?:\\.|\S)+)"
)


def _digits_names(src: bytes, node: Node, unsigned: bool = False) -> tuple[frozenset[str], bool]:
    """The names ``[[ $a =~ ^[0-9]+$ && $b =~ ^[0-9]+$ ]]`` (the test
    command `node`, or a ``&&`` list of them, or one negated with ``!``)
    shows to hold digits when it is true, and whether it is negated (then
    they hold digits when it is false). Empty when it is no such test."""
    if node.type == "negated_command":
        tested = [c for c in node.children if c.is_named]
        held, negated = (
            _digits_names(src, tested[0], unsigned) if len(tested) == 1 else (frozenset(), False)
        )
        return (held, not negated) if held else (frozenset(), False)
    if node.type == "list":
        operators = {node_text(src, c) for c in node.children if c.type in ("&&", "||")}
        if operators != {"&&"}:
            return frozenset(), False
        found: set[str] = set()
        for part in (c for c in node.children if c.type not in ("&&", "||")):
            held, negated = _digits_names(src, part, unsigned)
            if not negated:
                found |= held
        return frozenset(found), False
    if node.type != "test_command":
        return frozenset(), False
    text = node_text(src, node)
    if not (text.startswith("[[") and text.endswith("]]")):
        return frozenset(), False
    inner = text[2:-2].strip()
    negated = inner.startswith("!")
    if negated:
        inner = inner[1:].strip()
    if "||" in inner or "(" in inner.split("=~", 1)[0]:
        return frozenset(), False
    names: set[str] = set()
    for piece in inner.split("&&"):
        match = _MATCH_PART.fullmatch(piece.strip())
        pattern = _UNSIGNED_REGEX if unsigned else _DIGITS_REGEX
        if match is None or not pattern.fullmatch(match["regex"]):
            return frozenset(), False
        names.add(match["quoted"] or match["bare"])
    if negated and len(names) > 1:
        return frozenset(), False  # ! (a && b): one of them may not hold
    return frozenset(names), negated


def _leaves(src: bytes, node: Node) -> bool:
    """`node` always leaves what runs after it: ``exit``, ``return`` in a
    function, ``continue`` or ``break`` in a loop of the same function, or
    a ``{ …; }`` that ends with one."""
    if node.type == "compound_statement":
        named = [c for c in node.children if c.is_named]
        return bool(named) and _leaves(src, named[-1])
    if node.type != "command":
        return False
    name = node.child_by_field_name("name")
    word = node_text(src, name) if name is not None else ""
    if word not in ("exit", "return", "continue", "break") or _redefined(src, node, word):
        return False  # exit() { …; }: a function of the script's, which returns
    if word == "exit":
        return True
    # continue and break leave only a loop of the same function and the
    # same process (bash 5.2 says "only meaningful in a loop" in a function
    # a loop calls, or in a subshell, a pipeline's stage, and goes on);
    # return only a function (at the top it fails, and bash goes on)
    for parent in ancestors(node):
        if parent.type == "function_definition":
            return word == "return"
        if word != "return" and parent.type in _OWN_PROCESS:
            return False
        if word != "return" and parent.type == "pipeline":
            return False
        if word != "return" and parent.type in (
            "for_statement",
            "c_style_for_statement",
            "while_statement",
            "until_statement",
        ):
            return True
    return False


def _redefined(src: bytes, node: Node, word: str) -> bool:
    """The script makes `word` (``exit``…) something else: a function of
    that name, an alias (with aliases on, any), or ``enable -n`` (the
    builtin turned off: a missing command, and the script goes on)."""
    functions, _others = _runs_others(src)
    return word in functions or re.search(rb"\b(?:alias|enable)\b", src) is not None


#: What a test shows when it is true: whether it shows the fact asked
#: about, and whether it is negated (then the fact holds when it is false).
Shows = Callable[[Node], tuple[bool, bool]]


def _digits_shows(src: bytes, name: str, unsigned: bool) -> Shows:
    def shows(node: Node) -> tuple[bool, bool]:
        names, negated = _digits_names(src, node, unsigned)
        return name in names, negated

    return shows


def _guards(src: bytes, node: Node, shows: Shows) -> bool:
    """The statement `node` leaves unless what `shows` asks about holds:
    ``[[ $n =~ ^[0-9]+$ ]] || exit``, ``[[ ! $n =~ … ]] && continue``,
    ``if ! [[ $n =~ … ]]; then …; exit 1; fi``. Not one run in the
    background (``… || exit 1 &``): its exit leaves only itself."""
    after = node.next_sibling
    if after is not None and after.type == "&":
        return False
    if node.type == "list":
        kids = [c for c in node.children if c.type not in ("&&", "||")]
        operators = [node_text(src, c) for c in node.children if c.type in ("&&", "||")]
        if len(kids) == 2 and _falls_back(src, kids[0], kids[1]):
            # [[ $n =~ ^[0-9]+$ ]] || n=0: digits either way
            held, negated = shows(kids[0])
            return held and not negated and operators == ["||"]
        if len(kids) != 2 or not _leaves(src, kids[1]):
            return False
        held, negated = shows(kids[0])
        return held and negated == (operators == ["&&"])
    if node.type == "if_statement":
        if any(c.type in ("elif_clause", "else_clause") for c in node.children):
            return False
        conditions = [c for c in node.children_by_field_name("condition") if c.is_named]
        if len(conditions) != 1:
            return False  # if ! [[ … ]]; false; then exit: the last one decides
        body = [
            c
            for c in node.children
            if c.is_named and c not in conditions and c.type not in ("elif_clause", "else_clause")
        ]
        tests = [shows(c) for c in conditions]
        return (
            bool(body)
            and _leaves(src, body[-1])
            and any(held and negated for held, negated in tests)
        )
    return False


def _falls_back(src: bytes, test: Node, fallback: Node) -> bool:
    """`fallback` assigns a literal whole number to the very name the
    ``[[ $n =~ … ]]`` `test` tests (``|| n=0``): whichever runs, the name
    then holds digits when the test's regex admits only them."""
    if fallback.type != "variable_assignment":
        return False
    target = fallback.child_by_field_name("name")
    if target is None or target.type != "variable_name":
        return False
    if not re.fullmatch(re.escape(node_text(src, target)) + r"=[0-9]+", node_text(src, fallback)):
        return False  # n=0 itself (n+=0 appends to the caller's text)
    text = node_text(src, test)
    match = _MATCH_PART.search(text[2:-2] if text.startswith("[[") else "")
    tested = (match.group("quoted") or match.group("bare")) if match else None
    return tested == node_text(src, target)


@functools.lru_cache(maxsize=64)
def _runs_others(src: bytes) -> tuple[frozenset[str], bool]:
    """The names of the functions the script `src` defines, and whether it
    may run other text between any two of its commands: an ``alias`` (which
    may stand for any command), or a ``trap`` (an ERR, DEBUG or RETURN
    action runs between commands, a signal's whenever it comes)."""
    text = src.decode("utf-8", "replace")
    names = set(re.findall(r"(?:^|[\s;&|(){}])(?:function\s+)?([A-Za-z_][\w-]*)\s*\(\s*\)", text))
    names |= set(re.findall(r"(?:^|[\s;&|(){}])function\s+([A-Za-z_][\w-]*)", text))
    # (\trap, 'trap', "al"ias: quotes and backslashes dropped, as bash does)
    return frozenset(names), RUNS_BETWEEN.search(re.sub(r"[\"'\\]", "", text)) is not None


#: An ``alias`` or ``trap`` where a command starts (after a separator, a
#: keyword, ``command``/``builtin``), or bash's table of aliases: text that
#: may run between any two commands. (The word inside an array's list,
#: ``labels=(descr alias)``, is no command.)
RUNS_BETWEEN = re.compile(
    r"(?:^|[;&|(){}`]|\$\(|\b(?:then|do|else|elif|command|builtin|exec|time|!))\s*"
    r"(?:alias|trap)\b|BASH_ALIASES",
    re.M,
)


def _function_assigns(src: bytes, at: Node, function: str, name: str, seen: frozenset[str]) -> bool:
    """The body of every definition of `function` in the script `at` is in
    may assign `name` (`_assigns`); True when none is found in its tree."""
    root = at
    for parent in ancestors(at):
        root = parent
    bodies = [
        body
        for node in walk(root)
        if node.type == "function_definition"
        and (named := node.child_by_field_name("name")) is not None
        and node_text(src, named) == function
        and (body := node.child_by_field_name("body")) is not None
    ]
    return not bodies or _assigns(src, bodies, name, seen)


def _assigns(
    src: bytes, nodes: Sequence[Node], name: str, seen: frozenset[str] = frozenset()
) -> bool:
    """A statement among `nodes` may assign `name`: an assignment, a
    builtin given it, a loop or function definition, or a command that runs
    other text (``eval``, ``source``, an alias, a function of the script's
    whose body may: `seen` are those being looked into)."""
    functions, aliases = _runs_others(src)
    if aliases and nodes:
        return True
    for top in nodes:
        for node in walk(top):
            if node.type == "command":
                called = node.child_by_field_name("name")
                word = node_text(src, called) if called is not None else ""
                if word in ("eval", "source", "."):
                    return True
                if word in functions and (
                    word in seen or _function_assigns(src, node, word, name, seen | {word})
                ):
                    return True
            if node.type in ("arithmetic_expansion", "compound_statement") and node_text(
                src, node
            ).startswith(("((", "$((")):
                # (( n = … )), (( n++ )), $(( n += 1 )): arithmetic assigns too
                text = node_text(src, node)
                if re.search(
                    rf"(?<![\w$]){re.escape(name)}(?:\[[^\]]*\])?\s*(?:[-+*/%&|^]|<<|>>)?=(?!=)"
                    rf"|(?:\+\+|--)\s*{re.escape(name)}\b|\b{re.escape(name)}\s*(?:\+\+|--)",
                    text,
                ):
                    return True
            if node.type == "expansion" and re.match(
                rf"\$\{{{re.escape(name)}(?:\[[^\]]*\])?:?=", node_text(src, node)
            ):
                return True  # ${n:=…}, ${n=…}: assigns it when unset (or empty)
            if node.type == "variable_assignment":
                target = node.child_by_field_name("name")
                if target is not None and node_text(src, target).split("[", 1)[0] == name:
                    return True
            elif node.type in ("command", "declaration_command", "unset_command"):
                # the builtin, after any NAME=value prefix (IFS= read -r n)
                head = node.child_by_field_name("name") if node.type == "command" else None
                builtin = node_text(src, head if head is not None else node).split(None, 1)
                # the names its words give, an element's too (printf -v 'n[0]')
                given = {
                    re.split(r"[\[=+]", node_text(src, c).strip("'\""), maxsplit=1)[0]
                    for c in node.children
                }
                if builtin and builtin[0] in _ASSIGNING and name in given:
                    return True
            elif node.type == "for_statement":
                # its variable (the statements of its body are walked too)
                variable = node.child_by_field_name("variable")
                if variable is None or node_text(src, variable) == name:
                    return True
            elif node.type == "c_style_for_statement":
                body = node.child_by_field_name("body")
                header = src[node.start_byte : body.start_byte if body else node.end_byte]
                if re.search(rf"(?<![\w$]){re.escape(name)}\b", header.decode("utf-8", "replace")):
                    return True  # for (( n = 0; … )): its header may assign it
            elif node.type == "function_definition":
                return True  # a function may assign it when it is called
    return False


def matched_digits(src: bytes, node: Node, name: str, unsigned: bool = False) -> bool:
    """`node` (a use of `name`) runs only after ``[[ $name =~ ^[0-9]+$ ]]``
    held: on the right of ``&&`` after it, in the ``then`` body of an
    ``if`` whose condition is it, or below a guard that leaves otherwise
    (``|| exit``), with no assignment of `name` between. `unsigned`: the
    regular expression admits no ``-`` either."""
    return _held(
        src,
        node,
        _digits_shows(src, name, unsigned),
        lambda nodes: _assigns(src, nodes, name),
    )


def matched_pattern(src: bytes, node: Node, name: str) -> ValueModel | None:
    """What `name` may hold at `node` (a use of it) after a test of it held
    as `matched_digits` places one, ``[[ $name =~ ^REGEX$ ]]`` with a regex
    bash's ERE and Python's re read alike (`_ALIKE`: anchored whole, no
    alternation, no ``.``, no POSIX class, no backslash before a letter):
    the regex's model (of every test that may have held, together). None
    when no such test held."""
    found: list[str] = []

    def shows(test: Node) -> tuple[bool, bool]:
        tested = _one_match(src, test)
        if tested is None or tested[0] != name or not _ALIKE.fullmatch(tested[1]):
            return False, False
        found.append(tested[1])
        return True, tested[2]

    if not _held(src, node, shows, lambda nodes: _assigns(src, nodes, name)) or not found:
        return None
    model = pattern_model(found[0])
    for regex in found[1:]:
        model = model.union(pattern_model(regex))
    return model


#: A regex bash (POSIX ERE) and Python's re read alike: ``^…$`` whole, no
#: ``|``, no ``.`` (bash's matches a line break too), no bracket holding
#: ``[`` or ``:`` (POSIX classes), no backslash before a letter or digit.
_ALIKE = re.compile(r"\^(?:\\[^A-Za-z0-9]|\[[^\]\[:\\]*\]|[^\\|.\[\]^$])*\$")


def matched_digit_group(src: bytes, node: Node, group: int, functions: Collection[str]) -> bool:
    """`node` (a use of ``${BASH_REMATCH[group]}``) runs only after a ``[[
    $x =~ REGEX ]]`` held whose capturing group `group` matches digits
    alone (``^v([0-9]+)\\.([0-9]+)$``), as `matched_digits` places it,
    with no other ``=~`` test, assignment of ``BASH_REMATCH`` or function
    call (`functions`: the script's, which may test again) between:
    bash(1), BASH_REMATCH, holds what the last ``=~`` matched, group by
    group."""

    def shows(test: Node) -> tuple[bool, bool]:
        found = _one_match(src, test)
        if found is None:
            return False, False
        _name, regex, negated = found
        text = _group(regex, group)
        return text is not None and _DIGITS_GROUP.fullmatch(text) is not None, negated

    return _held(src, node, shows, lambda nodes: _rematches(src, nodes, functions))


def _one_match(src: bytes, node: Node) -> tuple[str, str, bool] | None:
    """The name and the regular expression of the test `node`, ``[[ $x =~
    REGEX ]]`` alone (or negated with ``!``, inside or outside the
    brackets), and whether it is negated."""
    negated = False
    if node.type == "negated_command":
        tested = [c for c in node.children if c.is_named]
        if len(tested) != 1:
            return None
        node, negated = tested[0], True
    if node.type != "test_command":
        return None
    text = node_text(src, node)
    if not (text.startswith("[[") and text.endswith("]]")):
        return None
    inner = text[2:-2].strip()
    if inner.startswith("!"):
        inner, negated = inner[1:].strip(), not negated
    if "&&" in inner or "||" in inner:
        return None
    match = _MATCH_PART.fullmatch(inner)
    if match is None or not _PLAIN_REGEX.fullmatch(match["regex"]):
        return None
    # an escaped blank or sign is that character to bash and to the
    # regex alike: read as the regex it is
    return match["quoted"] or match["bare"], match["regex"], negated


#: A regex word bash passes on as written but for backslashes before
#: blanks and signs: no quotes (quoted text is literal to bash: `"("` is
#: no group) and no backslash before a letter or digit (bash makes `\d`
#: a literal d, Python's re a digit).
_PLAIN_REGEX = re.compile(r"(?:\\[^A-Za-z0-9]|[^\\\"'])+")


def _group(regex: str, number: int) -> str | None:
    """The text of capturing group `number` of the extended regular
    expression `regex` (as written in the script: ``\\(`` is a literal
    parenthesis, a bracket expression holds none), or None."""
    count, depth, start, k = 0, 0, -1, 0
    opened: list[int] = []
    while k < len(regex):
        c = regex[k]
        if c == "\\":
            k += 2
            continue
        if c == "[":
            end = regex.find("]", k + 2 if regex[k + 1 : k + 2] in ("]", "^") else k + 1)
            if end < 0:
                return None
            k = end + 1
            continue
        if c == "(":
            count += 1
            opened.append(count)
            if count == number:
                start, depth = k + 1, len(opened)
        elif c == ")":
            if not opened:
                return None
            if opened[-1] == number and len(opened) == depth:
                return regex[start:k]
            opened.pop()
        k += 1
    return None


def _rematches(src: bytes, nodes: Sequence[Node], functions: Collection[str]) -> bool:
    """A statement among `nodes` may set ``BASH_REMATCH`` again: a ``=~``
    test, an assignment or ``unset`` of it, or a function call."""
    if _runs_others(src)[1] and nodes:
        return True  # an alias may stand for a test
    if nodes and _NAMEREF.search(src):
        return True  # declare -n r=BASH_REMATCH … r[1]=…: a write under another name
    for top in nodes:
        for node in walk(top):
            text = node_text(src, node)
            if node.type == "test_command" and "=~" in text:
                return True
            target = (
                node.child_by_field_name("name") if node.type == "variable_assignment" else None
            )
            if (
                target is not None and node_text(src, target).split("[", 1)[0] == "BASH_REMATCH"
            ) or (node.type in ("unset_command", "declaration_command") and "BASH_REMATCH" in text):
                return True
            name = node.child_by_field_name("name") if node.type == "command" else None
            if name is not None and (
                node_text(src, name) in functions or node_text(src, name) in ("eval", "source", ".")
            ):
                return True
            if (
                name is not None
                and node_text(src, name) in _ASSIGNING | {"wait", "builtin", "command"}
                and _REMATCH_WORD.search(text)
            ):
                return True  # read -r -a BASH_REMATCH, printf -v 'BASH_REMATCH[1]' …
            if node.type == "binary_expression" and _REMATCH_WORD.match(text):
                operator = node.child_by_field_name("operator")
                if (
                    operator is not None
                    and operator.type.endswith("=")
                    and operator.type
                    not in (
                        "==",
                        "!=",
                        "<=",
                        ">=",
                    )
                ):
                    return True  # (( BASH_REMATCH[1] = … ))
            if node.type in ("postfix_expression", "unary_expression") and "BASH_REMATCH" in text:
                return True
    return False


def _and_chain(src: bytes, conditions: Sequence[Node]) -> list[Node]:
    """The commands of an ``if``'s conditions that all held when its body
    runs: each condition, a ``&&`` chain's every command (``[[ … ]] && ((
    … ))``); none of a chain with ``||`` (its parts may not have run), and
    only the last of several conditions (``if a; b; then``: b decides)."""
    if not conditions:
        return []
    last = conditions[-1]
    body = last.child_by_field_name("body") if last.type == "redirected_statement" else None
    if body is not None and body.type == "list":
        last = body  # [[ … ]] && cmd 2>/dev/null: bash gives the redirection to cmd
    if last.type != "list":
        return [last]
    operators = {node_text(src, c) for c in last.children if c.type in ("&&", "||")}
    if operators != {"&&"}:
        return []
    found: list[Node] = []
    for c in last.children:
        if c.type == "list":
            found.extend(_and_chain(src, [c]))
        elif c.is_named:
            found.append(c)
    return found


#: The blocks whose statements run one after another, where what an
#: earlier one showed holds for a later one.
_BLOCKS = frozenset({"program", "compound_statement", "do_group", "if_statement"})
#: The branches of an ``if`` that run instead of its then-body: nothing of
#: the then-body held there.
_OTHER_BRANCHES = frozenset({"elif_clause", "else_clause"})


def assigned_arithmetic(src: bytes, node: Node, name: str) -> bool:
    """`node` (a use of `name`) runs only after `name` was assigned what
    bash's arithmetic computed (``c=$(( … ))`` or ``(( c = … ))``, a
    statement of its own earlier in the same block or in one around it),
    with nothing between that may assign `name` (`_assigns`): it holds a
    whole number, maybe negative. An expression bash cannot evaluate ends
    the script there (``syntax error: operand expected``), so no other text
    gets past the assignment."""
    child = node
    for parent in ancestors(node):
        if parent.type in _BLOCKS and child.type not in _OTHER_BRANCHES:
            siblings = [c for c in parent.children if c.is_named]
            if child in siblings:
                before = siblings[: siblings.index(child)]
                for k in range(len(before) - 1, -1, -1):
                    if _computes(src, before[k], name):
                        own = child
                        if child.type == "variable_assignment":
                            value = child.child_by_field_name("value")
                            own = value if value is not None else child
                        return not _assigns(src, [*before[k + 1 :], own], name)
        if parent.type in ("function_definition", "program", "subshell", "pipeline"):
            return False
        child = parent
    return False


def _computes(src: bytes, statement: Node, name: str) -> bool:
    """`statement` assigns `name` a number bash's arithmetic computed:
    ``name=$(( … ))`` (its whole value) or ``(( name = … ))``."""
    if statement.type == "variable_assignment":
        target = statement.child_by_field_name("name")
        value = statement.child_by_field_name("value")
        return (
            target is not None
            and node_text(src, target) == name
            and value is not None
            and value.type == "arithmetic_expansion"
        )
    if statement.type == "compound_statement":
        return (
            re.fullmatch(rf"\(\(\s*{re.escape(name)}\s*=(?!=)[^,]*\)\)", node_text(src, statement))
            is not None
        )
    return False


def _held(src: bytes, node: Node, shows: Shows, undone: Callable[[Sequence[Node]], bool]) -> bool:
    """`node` runs only after a test held that `shows` asks about (see
    `matched_digits`), with nothing `undone` says undoes it between. The
    assignment `node` is in the value of (``v="$(( v / 1024 )) KiB"``)
    writes after that value is made: only its value is looked into."""

    def upto(statement: Node) -> Node:
        if statement.type == "variable_assignment":
            value = statement.child_by_field_name("value")
            if value is not None and value.start_byte <= node.start_byte < value.end_byte:
                return value
        return statement

    child = node
    for parent in ancestors(node):
        if parent.type == "list":
            kids = [c for c in parent.children if c.type not in ("&&", "||")]
            operators = [node_text(src, c) for c in parent.children if c.type in ("&&", "||")]
            if (
                len(kids) == 2
                and operators == ["&&"]
                and kids[1] == child
                and shows(kids[0]) == (True, False)
                and not undone([child])
            ):
                return True
        elif parent.type in ("if_statement", "elif_clause"):
            # if [[ … ]]; then …, elif [[ … ]]; then …, and a condition that
            # is a chain of && (each test of it held when the body runs)
            conditions: list[Node] = []
            body: list[Node] = []
            after_then = False
            for c in parent.children:
                if c.type == "then":
                    after_then = True
                elif c.type in ("elif_clause", "else_clause", "fi"):
                    break
                elif after_then:
                    body.append(c)
                elif c.is_named:
                    conditions.append(c)
            if child in body:
                chain = _and_chain(src, conditions)
                for k, test in enumerate(chain):
                    if shows(test) == (True, False) and not undone(
                        [*chain[k + 1 :], *body[: body.index(child)], upto(child)]
                    ):
                        return True
        if parent.type in _BLOCKS and child.type not in _OTHER_BRANCHES:
            # a guard that leaves earlier in the same block
            siblings = [c for c in parent.children if c.is_named]
            if child in siblings:
                before = siblings[: siblings.index(child)]
                for k, statement in enumerate(before):
                    if _guards(src, statement, shows) and not undone(
                        [*before[k + 1 :], upto(child)]
                    ):
                        return True
        if parent.type in ("function_definition", "program"):
            return False
        child = parent
    return False
