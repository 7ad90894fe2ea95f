"""Sentences of individual features, in English and French, merged into ``bot.i18n.CATALOG``.

Each module defines ``TEXTS: dict[str, Mapping[str, str]]`` and is listed once in
``bot.i18n._FEATURE_TEXTS``; keeping features apart keeps their translations easy to review.
"""
