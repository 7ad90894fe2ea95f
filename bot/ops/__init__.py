"""Running the bot for months: logs, metrics, health, graceful shutdown, backups.

Operator-facing only (log lines, HTTP endpoints, CLI messages are English). Nothing here is
imported by the engine, the store or the service; the Discord layer reports each interaction
through :func:`bot.ops.metrics.track` from its one error funnel.
"""
