"""Export files -> validated, compiled exports."""

from mcp_harbor.config.loader import Export, Step, discover_files, load_export, load_exports
from mcp_harbor.config.model import ExportSpec, ProgramGrammar, StepSpec
from mcp_harbor.config.programs import (
    effective_programs,
    grammar_for,
    load_programs_file,
    server_programs,
    set_server_programs,
)

__all__ = [
    "Export",
    "ExportSpec",
    "ProgramGrammar",
    "Step",
    "StepSpec",
    "discover_files",
    "effective_programs",
    "grammar_for",
    "load_export",
    "load_exports",
    "load_programs_file",
    "server_programs",
    "set_server_programs",
]
