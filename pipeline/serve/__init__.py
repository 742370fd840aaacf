"""The served model and the query tools: an OpenAI-compatible chat endpoint (batched, streaming),
browser sessions with the query tools and actions, agent runs, health and Prometheus metrics, and
the MCP server. Started by ``python -m pipeline serve --config configs/serve/default.yaml``.
"""
