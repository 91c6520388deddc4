"""The VAPID key pair that signs every Web Push message (RFC 8292).

Production sets VAPID_PRIVATE_KEY and VAPID_PUBLIC_KEY (`manage.py vapid_keys` prints a
new pair); without them push is off (the choices page says so, nothing is queued for it).
With DEBUG on and no keys (`make run`), a pair is made once into `VAPID_DEV_KEY_FILE`
(BASE_DIR/.vapid.pem, kept out of git) so push works in the demo.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings


@dataclass(frozen=True)
class Keys:
    private: str  #: base64url of the 32-byte private scalar (what pywebpush reads)
    public: str  #: base64url of the uncompressed P-256 point (the applicationServerKey)


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def keys_of(private: ec.EllipticCurvePrivateKey) -> Keys:
    scalar = private.private_numbers().private_value.to_bytes(32, "big")
    point = private.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return Keys(private=b64url(scalar), public=b64url(point))


def new_keys() -> Keys:
    return keys_of(ec.generate_private_key(ec.SECP256R1()))


@lru_cache(maxsize=8)
def _from_private(text: str) -> Keys:
    """A private key as base64url raw (32 bytes) or DER, or PEM."""
    text = text.strip()
    if text.startswith("-----BEGIN"):
        loaded = serialization.load_pem_private_key(text.encode(), password=None)
    else:
        raw = b64url_decode(text.replace("\n", ""))
        if len(raw) == 32:
            loaded = ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())
        else:
            loaded = serialization.load_der_private_key(raw, password=None)
    if not isinstance(loaded, ec.EllipticCurvePrivateKey):
        raise ValueError("VAPID_PRIVATE_KEY is not an elliptic-curve (P-256) key")
    return keys_of(loaded)


def _dev_keys() -> Keys:
    path = Path(settings.VAPID_DEV_KEY_FILE)
    if not path.exists():
        key = ec.generate_private_key(ec.SECP256R1())
        pem = key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        path.write_bytes(pem)
        path.chmod(0o600)
    return _from_private(path.read_text())


def keys() -> Keys | None:
    """The key pair push signs with, or None when push is off (no keys, not DEBUG)."""
    if settings.VAPID_PRIVATE_KEY:
        found = _from_private(settings.VAPID_PRIVATE_KEY)
        if settings.VAPID_PUBLIC_KEY and settings.VAPID_PUBLIC_KEY != found.public:
            raise ValueError("VAPID_PUBLIC_KEY does not belong to VAPID_PRIVATE_KEY")
        return found
    if settings.DEBUG and settings.VAPID_DEV_KEY_FILE:
        return _dev_keys()
    return None


def push_available() -> bool:
    return keys() is not None
