"""The commit–reveal protocol behind every draw's seed (the match draw and the competition
draw): commitments, their check, the seed, and what stays sealed until when.

Pure standard library (no Django), so ``python -m frames.draw`` and
``python -m competitions.draw`` replay a draw from a bare checkout. The protocol:

1. Each party (two captains and the server; a secretary and the server) picks a secret
   (:func:`new_secret`, 128 random bits) and the app records :func:`commitment` of each,
   before anyone reveals anything.
2. The parties reveal; each secret is checked against its commitment (:func:`verify`).
   The server reveals last: it alone could refuse after seeing the outcome, visibly.
3. ``seed = derive_seed(*secrets)`` in a fixed order; the draw is a pure function of
   the seed and its inputs. The secrets, commitments and seed are stored and published.

No party can choose the seed: each secret is fixed before any is known, and one honest
secret makes the seed unpredictable. That holds only while the secrets are **sealed**: a
secret shown to anybody (a superuser too, in the admin, an API, a page, an export, an
archive or a log) before the draw lets them replay the draw offline and re-commit until
it suits them. So a secret is shown only once its draw is made (:func:`shown`).

>>> secret = "home secret"
>>> verify(secret, commitment(secret)), verify("other", commitment(secret))
(True, False)
>>> shown(secret, drawn=False), shown(secret, drawn=True)
('', 'home secret')
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

__all__ = [
    "MAX_SEED",
    "SEALED",
    "SEED_DOMAIN",
    "commitment",
    "derive_seed",
    "is_commitment",
    "new_secret",
    "normalise_commitment",
    "sealed_label",
    "shown",
    "verify",
]

#: Largest seed: seeds fit a signed 64-bit database column (``random.Random`` ignores sign).
MAX_SEED = 2**63 - 1
#: The domain tag hashed before the contributions; changing it changes every seed.
SEED_DOMAIN = "marker-draw-seed"
#: What is shown in a secret's place before its draw.
SEALED = "sealed until the draw"

_HEX64 = re.compile(r"^[0-9a-f]{64}$")


def new_secret() -> str:
    """A fresh secret: 128 random bits as 32 hexadecimal characters."""
    return secrets.token_hex(16)


def commitment(secret: str) -> str:
    """The public commitment to a secret: the SHA-256 hex digest of its UTF-8 bytes
    (anyone checks it with ``printf %s SECRET | sha256sum``).

    >>> commitment("abc")
    'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
    """
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def normalise_commitment(value: str | None) -> str:
    """A commitment as typed (spaces, capitals) in its stored form."""
    return (value or "").strip().lower()


def is_commitment(value: str) -> bool:
    """Whether ``value`` has a commitment's form: 64 lower-case hexadecimal characters.

    >>> is_commitment(commitment("x")), is_commitment("abc")
    (True, False)
    """
    return bool(_HEX64.match(value))


def verify(secret: str, recorded: str) -> bool:
    """Whether a revealed ``secret`` matches the ``recorded`` commitment (an empty secret
    or commitment never does)."""
    if not secret or not recorded:
        return False
    return hmac.compare_digest(commitment(secret), recorded)


def derive_seed(*contributions: str) -> int:
    """The seed from the revealed secrets, in the draw's fixed order.

    SHA-256 over :data:`SEED_DOMAIN` and each contribution, each length-prefixed (8-byte
    big-endian length of its UTF-8 bytes), so ``("ab", "c")`` and ``("a", "bc")`` differ;
    the first 8 bytes of the digest, shifted right by one, give a 63-bit seed.

    >>> derive_seed("a", "bc") != derive_seed("ab", "c")
    True
    >>> 0 <= derive_seed("home secret", "away secret", "server secret") <= MAX_SEED
    True
    """
    if not contributions:
        raise ValueError("derive_seed needs at least one contribution")
    digest = hashlib.sha256()
    for part in (SEED_DOMAIN, *contributions):
        if not isinstance(part, str):
            raise TypeError(f"seed contributions are str, not {type(part).__name__}")
        data = part.encode("utf-8")
        digest.update(len(data).to_bytes(8, "big"))
        digest.update(data)
    return int.from_bytes(digest.digest()[:8], "big") >> 1


def shown(secret: str, *, drawn: bool) -> str:
    """A secret as anyone may see it: itself once its draw is made, else nothing."""
    return secret if drawn else ""


def sealed_label(secret: str, *, drawn: bool) -> str:
    """A secret for a page that says why it is missing: :data:`SEALED` before the draw,
    ``–`` when there is none."""
    if not drawn:
        return SEALED
    return secret or "–"
