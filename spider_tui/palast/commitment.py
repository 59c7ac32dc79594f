"""Provably fair deals (SPEC §13): each round's ``round`` message carries ``commitment``, the
lowercase hex SHA-256 of the round's deal code; ``round_over`` reveals the code, and the client
checks the two, so a player can trust the deal was fixed before the first move.  Both sides use
this module: the server to commit, the client to check.

>>> c = commitment("p-iwygzbdzjwblunbm7bnbdqrtni")
>>> len(c), c == c.lower(), verified(c, "p-iwygzbdzjwblunbm7bnbdqrtni"), verified(c, "p-aaaa")
(64, True, True, False)
"""

from __future__ import annotations

import hashlib
import hmac


def commitment(deal: str) -> str:
    """The lowercase hex SHA-256 of the deal code's text (ASCII)."""
    return hashlib.sha256(deal.encode("utf-8")).hexdigest()


def verified(told: object, deal: object) -> bool:
    """Whether the ``commitment`` a server sent at a round's start matches the deal code it told
    at the round's end (anything malformed is not verified)."""
    if not isinstance(told, str) or not isinstance(deal, str) or len(told) != 64:
        return False
    return hmac.compare_digest(told.lower(), commitment(deal))
