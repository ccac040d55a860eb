"""Model endpoints: the turn protocol, its OpenAI-compatible client and probes.

Nothing outside this package imports ``openai``; everything speaks
`mcp_harbor.llm.turn`.
"""

from mcp_harbor.llm.turn import ModelClient, ModelSource, ToolCall, ToolOffer, Turn

__all__ = ["ModelClient", "ModelSource", "ToolCall", "ToolOffer", "Turn"]
