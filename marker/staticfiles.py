"""The static files' storage in production: whitenoise's compressed, content-hashed files,
except that a script's `//# sourceMappingURL=` comment is left alone. Vendored scripts
(Pyodide's) name source maps they do not ship, and the manifest storage would otherwise
refuse the whole collectstatic over a debugging aid."""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticFilesStorage(CompressedManifestStaticFilesStorage):  # type: ignore[misc]  # untyped
    patterns = tuple(
        (glob, rules)
        for glob, rules in CompressedManifestStaticFilesStorage.patterns
        if glob != "*.js"
    )
