"""collectstatic in production (content-hashed, compressed files for nginx to serve)
survives a vendored script naming a source map it does not ship (Pyodide's do)."""

from __future__ import annotations

from django.core.management import call_command


def test_collectstatic_keeps_a_script_whose_source_map_is_missing(tmp_path, settings):
    source, root = tmp_path / "source", tmp_path / "root"
    (source / "vendor").mkdir(parents=True)
    (source / "vendor" / "lib.js").write_text(
        "console.log('hello');\n" * 200 + "//# sourceMappingURL=lib.js.map\n"
    )
    (source / "site.css").write_text("body { background: url('vendor/lib.js'); }\n")
    settings.STATICFILES_DIRS = [source]
    settings.STATIC_ROOT = root
    settings.STATICFILES_FINDERS = ["django.contrib.staticfiles.finders.FileSystemFinder"]
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "marker.staticfiles.StaticFilesStorage"},
    }
    call_command("collectstatic", interactive=False, verbosity=0)
    hashed_js = [p.name for p in (root / "vendor").glob("lib.*.js")]
    assert len(hashed_js) == 1
    assert (root / "vendor" / f"{hashed_js[0]}.gz").exists()
    css = next(p for p in root.glob("site.*.css"))
    assert f"vendor/{hashed_js[0]}" in css.read_text()  # references still point at hashes
