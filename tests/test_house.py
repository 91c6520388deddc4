"""The house rules that no linter checks for us."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Not code of ours: what the browser is served, the pages' templates, the docs.
NOT_PYTHON = {"static", "staticfiles", "templates", "docs", "node_modules"}


def _packages() -> list[str]:
    """Every top-level directory of ours holding Python: the apps, config, rules, the
    benches, the deploy scripts and the tests' own helpers (a new app is checked without
    being listed here)."""
    return sorted(
        path.name
        for path in ROOT.iterdir()
        if path.is_dir()
        and not path.name.startswith(".")
        and path.name not in NOT_PYTHON
        and any(path.rglob("*.py"))
    )


def _modules() -> dict[str, Path]:
    found = {}
    for package in _packages():
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            found[name.removesuffix(".__init__")] = path
    return found


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """Every module of ours that `name` imports, at any depth of the file (an import
    inside a function counts: it is how a cycle hides)."""
    base = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = base.split(".")
                parts = parts[: len(parts) - node.level + 1]
                module = ".".join(parts + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            targets = [f"{module}.{alias.name}" for alias in node.names] or [module]
        else:
            continue
        for target in targets:
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name:
                out.add(target)
    return out


def test_no_module_of_ours_imports_another_in_a_circle():
    assert {"config", "rules", "marker", "leagues", "frames", "bench", "deploy", "tests"} <= set(
        _packages()
    )
    modules = _modules()
    graph = {name: _imports(name, path, modules) for name, path in modules.items()}
    # Tarjan's strongly connected components: any with two or more modules is a cycle.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for name in sorted(graph):
        if name not in index:
            visit(name)
    assert cycles == []


def test_nothing_in_the_repository_points_outside_it():
    """Docs and code cite what is in the repository: no path to files beside it."""
    offenders = []
    for path in ROOT.rglob("*"):
        if path.suffix not in {".py", ".md", ".html", ".toml", ".js"} or not path.is_file():
            continue
        if {".venv", ".git", "node_modules", "staticfiles"} & set(path.parts) or path == Path(
            __file__
        ):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for needle in ("../shared/", "/work/shared", "specs/", "seeds/", "games.md"):
            if needle in text:
                offenders.append(f"{path.relative_to(ROOT)}: {needle}")
    assert offenders == []
