"""The checker's rules, one per module (``h000.py`` … ``w106.py``): each
class holds the rule's metadata, its documentation (``docs/rules.md`` is
generated from it) and its detection, classmethods that take the facts the
analysis hands over and return the rule's finding, or None. Every finding is
built by its rule's class (`Rule.hazard`), so its id is the class's."""

from __future__ import annotations

from mcp_harbor.check.rules._base import DOC_HEADINGS, Rule
from mcp_harbor.check.rules.h000 import UnparseableTemplate
from mcp_harbor.check.rules.h001 import UnsafeRawPlaceholder
from mcp_harbor.check.rules.h002 import ShellquoteInQuotedContext
from mcp_harbor.check.rules.h003 import CallerChoosesCommand
from mcp_harbor.check.rules.h004 import ReparsedAsShell
from mcp_harbor.check.rules.h005 import InterpreterProgram
from mcp_harbor.check.rules.h006 import ArithmeticInjection
from mcp_harbor.check.rules.h007 import ValueAsName
from mcp_harbor.check.rules.h008 import CodeSelectingVariable
from mcp_harbor.check.rules.h009 import OptionRunsCode
from mcp_harbor.check.rules.h010 import SecretPrinted
from mcp_harbor.check.rules.h011 import UndeclaredReference
from mcp_harbor.check.rules.h012 import NoGrammarPosition
from mcp_harbor.check.rules.h020 import CallerValueAsInstructions
from mcp_harbor.check.rules.w101 import OptionInjection
from mcp_harbor.check.rules.w102 import UnquotedExpansion
from mcp_harbor.check.rules.w103 import CallerChosenPath
from mcp_harbor.check.rules.w104 import RawValueSplits
from mcp_harbor.check.rules.w105 import XargsWithoutNull
from mcp_harbor.check.rules.w106 import UnconfirmedDestructiveGrant

__all__ = [
    "DOC_HEADINGS",
    "RULES",
    "ArithmeticInjection",
    "CallerChoosesCommand",
    "CallerChosenPath",
    "CallerValueAsInstructions",
    "CodeSelectingVariable",
    "InterpreterProgram",
    "NoGrammarPosition",
    "OptionInjection",
    "OptionRunsCode",
    "RawValueSplits",
    "ReparsedAsShell",
    "Rule",
    "SecretPrinted",
    "ShellquoteInQuotedContext",
    "UnconfirmedDestructiveGrant",
    "UndeclaredReference",
    "UnparseableTemplate",
    "UnquotedExpansion",
    "UnsafeRawPlaceholder",
    "ValueAsName",
    "XargsWithoutNull",
    "rule",
]

#: Every rule by id, in id order.
RULES: dict[str, type[Rule]] = {
    r.id: r
    for r in (
        UnparseableTemplate,
        UnsafeRawPlaceholder,
        ShellquoteInQuotedContext,
        CallerChoosesCommand,
        ReparsedAsShell,
        InterpreterProgram,
        ArithmeticInjection,
        ValueAsName,
        CodeSelectingVariable,
        OptionRunsCode,
        SecretPrinted,
        UndeclaredReference,
        NoGrammarPosition,
        CallerValueAsInstructions,
        OptionInjection,
        UnquotedExpansion,
        CallerChosenPath,
        RawValueSplits,
        XargsWithoutNull,
        UnconfirmedDestructiveGrant,
    )
}


def rule(rule_id: str) -> type[Rule]:
    """The rule with id `rule_id` (case-insensitive), or by kebab-case name.

    Raises:
        KeyError: no such rule.
    """
    key = rule_id.upper()
    if key in RULES:
        return RULES[key]
    for candidate in RULES.values():
        if candidate.name == rule_id.lower():
            return candidate
    raise KeyError(rule_id)
