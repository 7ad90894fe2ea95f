"""The nonces that make the outbox's retries safe (issue 37): Discord checks a nonce per author
within a few minutes, and the bot is the author of every DM and post, so a nonce must name
everything that tells two messages apart, in at most 25 characters."""

from __future__ import annotations

from bot.ui.route import end_mentions_nonce, end_nonce

BIG = 2**63 - 1  # the largest Discord id


def test_an_end_dm_nonce_names_the_game_and_the_player_within_25_characters() -> None:
    nonces = {end_nonce(g, u) for g in (1, 2, 10**9) for u in (11, 22, BIG)}
    assert len(nonces) == 9  # one per game and player
    assert all(len(n) <= 25 for n in nonces)
    assert end_nonce(7, 22) == end_nonce(7, 22)  # a retry sends the same one


def test_a_later_mention_of_another_player_is_a_post_of_its_own() -> None:
    # Bob is mentioned at once; Alice, whose DMs kept failing, minutes later: Discord must not
    # answer her post with his.
    first, later = end_mentions_nonce(5, (22,)), end_mentions_nonce(5, (11,))
    assert first != later and len(first) <= 25 and len(later) <= 25
    assert end_mentions_nonce(5, (22, 11)) == end_mentions_nonce(5, (11, 22))
    assert end_mentions_nonce(5, (BIG, 11, 22)) != end_nonce(5, BIG)
