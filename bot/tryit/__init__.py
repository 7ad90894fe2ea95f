"""``python -m bot try``: play Mexican Train in a terminal, no Discord token needed.

:mod:`bot.tryit.game` runs the game through the bot's own service and store; :mod:`bot.tryit.text`
draws the table as text. See :func:`run`.
"""

from bot.tryit.game import TryOptions, run

__all__ = ["TryOptions", "run"]
