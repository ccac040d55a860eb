"""Export files -> validated, compiled exports."""

from mcp_harbor.config.loader import Export, Step, discover_files, load_export, load_exports
from mcp_harbor.config.model import ExportSpec, StepSpec

__all__ = [
    "Export",
    "ExportSpec",
    "Step",
    "StepSpec",
    "discover_files",
    "load_export",
    "load_exports",
]
