"""The model side of runs: agent steps and fix:, held by `AgentRuntime`."""

from mcp_harbor.runctx.agent.runtime import AgentRuntime

__all__ = ["AgentRuntime"]
