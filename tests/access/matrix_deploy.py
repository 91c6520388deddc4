"""What production's load balancer asks: the health check, open to anyone (it says only
whether the database and the cache answer)."""

from __future__ import annotations

from .base import Rule

ACCESS = {
    "healthz": Rule(),
}
