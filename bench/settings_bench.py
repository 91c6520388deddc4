"""Settings for the HTTP benches: production settings with the bench's own URLconf, which
adds the floors the benches compare with (never routed in the product)."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls_bench"
