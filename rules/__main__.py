"""Command line: ``python -m rules list | describe GAME | replay FILE|- | docs ...``.

Run from the repository root with a bare ``python3``. Output is JSON on standard output
(``docs GAME``: Markdown); a refusal prints ``{"error", "message", "index"}`` on standard
error and exits with 2.

``docs`` (see :mod:`rules.docgen`):

* ``docs GAME``: the generated part of the game's page, as Markdown;
* ``docs --write [GAME ...]``: write it into ``docs/games/<id>.md`` between the markers
  (creating the page if need be); with no game, every registered game and the index;
* ``docs --index``: write the table of games into ``docs/games/README.md``;
* ``docs --check``: exit 2 (``stale_docs``) if a page or the index is not what
  ``--write`` would make.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from rules import docgen
from rules.core import Game, replay
from rules.registry import UnknownGame, games, get
from rules.vocabulary import RuleError

__all__ = ["DOCUMENT_KEYS", "USAGE", "main"]

USAGE = (
    "usage: python -m rules list | describe GAME | replay FILE|- | docs GAME"
    " | docs --write [GAME ...] | docs --index | docs --check"
)

#: The keys a replay document may hold: the input, plus what golden files add.
DOCUMENT_KEYS = frozenset(
    {"game", "setup", "events", "expected", "checkpoints", "error", "title", "notes"}
)


def _fail(out: TextIO, code: str, message: str, index: int | None = None) -> int:
    out.write(json.dumps({"error": code, "message": message, "index": index}) + "\n")
    return 2


def _emit(out: TextIO, data: Any) -> int:
    out.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    return 0


def _read(source: str, stdin: TextIO) -> str:
    if source == "-":
        return stdin.read()
    with open(source, encoding="utf-8") as fh:
        return fh.read()


def main(
    argv: Sequence[str] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run the command line and return the exit status (0 ok, 2 refused or bad usage).

    >>> import io
    >>> out = io.StringIO()
    >>> main(["list"], stdout=out)
    0
    >>> "bar_billiards_4pin" in out.getvalue()
    True
    >>> err = io.StringIO()
    >>> main(["describe", "snooker"], stdout=out, stderr=err)
    2
    >>> json.loads(err.getvalue())["error"]
    'unknown_game'
    """
    args = list(sys.argv[1:] if argv is None else argv)
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    if not args or args[0] in ("-h", "--help", "help"):
        if not args:
            return _fail(stderr, "usage", USAGE)
        stdout.write(USAGE + "\n")
        return 0
    command, rest = args[0], args[1:]
    if command == "list" and not rest:
        return _emit(stdout, [g.summary() for g in games()])
    if command == "describe" and len(rest) == 1:
        try:
            return _emit(stdout, get(rest[0]).describe())
        except UnknownGame as err:
            return _fail(stderr, "unknown_game", err.message)
    if command == "replay" and len(rest) == 1:
        return _replay(rest[0], stdin, stdout, stderr)
    if command == "docs" and rest:
        return _docs(rest, stdout, stderr)
    return _fail(stderr, "usage", USAGE)


def _docs(rest: list[str], stdout: TextIO, stderr: TextIO) -> int:
    flag, names = rest[0], rest[1:]
    if not flag.startswith("--"):
        if names:
            return _fail(stderr, "usage", USAGE)
        try:
            stdout.write(docgen.render(get(flag)))
        except UnknownGame as err:
            return _fail(stderr, "unknown_game", err.message)
        return 0
    if flag not in ("--write", "--index", "--check") or (names and flag != "--write"):
        return _fail(stderr, "usage", USAGE)
    try:
        chosen: list[Game[Any]] = [get(n) for n in names] if names else games()
    except UnknownGame as err:
        return _fail(stderr, "unknown_game", err.message)
    root = docgen.DOCS_DIR.parent.parent
    index = docgen.DOCS_DIR / docgen.GAMES_README
    if flag == "--check":
        stale = [
            str(docgen.page_path(g).relative_to(root))
            for g in chosen
            if docgen.page_path(g).exists() and not _current_page(g)
        ]
        if index.exists() and not _current_index():
            stale.append(str(index.relative_to(root)))
        if stale:
            return _fail(
                stderr,
                "stale_docs",
                f"not what python -m rules docs --write makes: {', '.join(stale)}",
            )
        return _emit(stdout, {"current": True})
    written: list[str] = []
    unchanged: list[str] = []
    try:
        if flag == "--write":
            for g in chosen:
                path = str(docgen.page_path(g).relative_to(root))
                (written if docgen.write_page(g) else unchanged).append(path)
        if flag == "--index" or (flag == "--write" and not names and index.exists()):
            path = str(index.relative_to(root))
            (written if docgen.write_index(games()) else unchanged).append(path)
    except docgen.PageError as err:
        return _fail(stderr, "bad_page", str(err))
    except OSError as err:
        return _fail(stderr, "unwritable", str(err))
    return _emit(stdout, {"written": written, "unchanged": unchanged})


def _current_page(game: Game[Any]) -> bool:
    text = docgen.page_path(game).read_text(encoding="utf-8")
    try:
        return docgen.replace_block(text, docgen.render(game)) == text
    except docgen.PageError:
        return False


def _current_index() -> bool:
    text = (docgen.DOCS_DIR / docgen.GAMES_README).read_text(encoding="utf-8")
    try:
        return docgen.replace_block(text, docgen.render_index(games())) == text
    except docgen.PageError:
        return False


def _replay(source: str, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    try:
        text = _read(source, stdin)
    except (OSError, UnicodeDecodeError) as err:
        return _fail(stderr, "unreadable", f"cannot read {source}: {err}")
    try:
        doc = json.loads(text)
    except ValueError as err:
        return _fail(stderr, "bad_json", f"{source} is not valid JSON: {err}")
    if not isinstance(doc, dict):
        return _fail(
            stderr, "bad_document", 'expected {"game": ID, "setup": {...}, "events": [...]}'
        )
    unknown = sorted(set(doc) - DOCUMENT_KEYS)
    if unknown:
        return _fail(stderr, "bad_document", f"unknown key(s): {', '.join(unknown)}")
    name = doc.get("game")
    if not isinstance(name, str):
        return _fail(stderr, "bad_document", "the document needs a string 'game'")
    try:
        game = get(name)
    except UnknownGame as err:
        return _fail(stderr, "unknown_game", err.message)
    events = doc.get("events", [])
    if not isinstance(events, list):
        return _fail(stderr, "bad_document", "'events' must be a list")
    try:
        state = replay(game, doc.get("setup"), events)
    except RuleError as err:
        return _fail(stderr, err.code, err.message, err.index)
    return _emit(stdout, game.view(state))


if __name__ == "__main__":
    sys.exit(main())
