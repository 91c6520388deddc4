"""A league's whole history as one JSON archive, and its restore (docs/data.md).

The archive is versioned (`FORMAT`, `VERSION`) and made of the sections listed in
`exchange.sections.SECTIONS`: each holds, per model, the league's rows with every
concrete field, keys and foreign keys as they were in the exporting instance. A restore
creates the rows anew (new keys, mapped as it goes), in section order, in one
transaction; fills in the nullable foreign keys that point forward (at a row restored
later, or later in the same part) and the many-to-many links once every row is in; then
recomputes what is derived (players' statistics, ratings); tables are
computed from fixtures, so they follow.

Accounts: a *full backup* (`full=True`, the `league_export` command's default) carries
the accounts the rows point at (username, email, names; never a password) and everyone's
contact details; a restore finds each account by username or creates it without a usable
password (its owner sets one by "forgot password"). A *portable* export (the secretary's
download) carries no account, no email address and no email subscription: rows that
pointed at an account point at nobody.
"""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Iterator
from datetime import date, datetime
from decimal import Decimal
from typing import Any
from uuid import UUID

from django.contrib.auth import get_user_model
from django.db import models, transaction
from django.utils import timezone

from frames.models import Frame
from frames.pad.events import frame_rebuild
from leagues.models import League
from marker.errors import DomainError

from .sections import MOVED_LABELS, SECTIONS, Part

FORMAT = "marker-league-archive"
VERSION = 1

User = get_user_model()
#: A problem `frame_rebuild` reports with a stored cache, not with the log itself (a
#: cache the engine would now work out differently is rebuilt, not refused).
CACHE_PROBLEM = re.compile(r"cached .* differ|frame cache differs")
_USER_LABEL = User._meta.label_lower
_ACCOUNT_FIELDS = ("username", "email", "first_name", "last_name", "is_active")


def _json_value(value: Any) -> Any:
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, UUID):
        return str(value)
    return value


def _fields(model: type[models.Model]) -> list[models.Field]:
    return [f for f in model._meta.concrete_fields if not f.primary_key]


def _through(field: models.ManyToManyField) -> Any:
    return field.remote_field.through


def _m2m_fields(model: type[models.Model]) -> list[models.ManyToManyField]:
    """The model's many-to-many fields with Django's own link table (a link table of our
    own is a model, archived as a part)."""
    return [
        f
        for f in model._meta.many_to_many
        if isinstance(f, models.ManyToManyField) and _through(f)._meta.auto_created
    ]


def _m2m_links(field: models.ManyToManyField, ids: list[int]) -> dict[int, list[int]]:
    """Each row's related keys, by the row's key (one query per 2,000 rows)."""
    through = _through(field)
    source, target = f"{field.m2m_field_name()}_id", f"{field.m2m_reverse_field_name()}_id"
    links: dict[int, list[int]] = {}
    for start in range(0, len(ids), 2000):
        pairs = through._default_manager.filter(**{f"{source}__in": ids[start : start + 2000]})
        for row_id, related_id in pairs.order_by(source, target).values_list(source, target):
            links.setdefault(row_id, []).append(related_id)
    return links


def _dump_row(obj: models.Model, part: Part, full: bool, accounts: dict[int, dict]) -> dict:
    row: dict[str, Any] = {"id": obj.pk}
    sealed = part.sealed(obj) if part.sealed is not None else ()
    for f in _fields(part.model):
        value = getattr(obj, f.attname)
        if f.is_relation and f.related_model is User:
            if value is not None and full:
                accounts.setdefault(value, {"id": value})
            elif not full:
                value = None
        elif (f.name in part.scrub and not full) or f.name in sealed:
            value = f.get_default()
        row[f.attname] = _json_value(value)
    return row


#: Rows read (and dumped) at a time: the export's memory is a chunk's, not the league's.
CHUNK = 500


def _part_rows(part: Part, league: League, full: bool, accounts: dict[int, dict]) -> Iterator[dict]:
    """A part's rows as the archive holds them, in key order, read `CHUNK` at a time (a
    server-side cursor) with their many-to-many links."""
    m2m = _m2m_fields(part.model)
    chunk: list[dict] = []

    def links(chunk: list[dict]) -> list[dict]:
        for field in m2m:
            found = _m2m_links(field, [row["id"] for row in chunk])
            to_accounts = field.related_model is User
            for row in chunk:
                related = found.get(row["id"], [])
                if to_accounts:
                    related = related if full else []
                    for pk in related:
                        accounts.setdefault(pk, {"id": pk})
                row[field.name] = related
        return chunk

    for obj in part.rows(league).order_by("pk").iterator(chunk_size=CHUNK):
        chunk.append(_dump_row(obj, part, full, accounts))
        if len(chunk) == CHUNK:
            yield from links(chunk)
            chunk = []
    if chunk:
        yield from links(chunk)


def _accounts(accounts: dict[int, dict]) -> list[dict]:
    if accounts:
        for user in User.objects.filter(pk__in=accounts).order_by("pk"):
            accounts[user.pk] = {"id": user.pk} | {
                name: getattr(user, name) for name in _ACCOUNT_FIELDS
            }
    return [accounts[pk] for pk in sorted(accounts)]


def _head(league: League, full: bool, now: datetime | None) -> dict:
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": (now or timezone.now()).isoformat(),
        "full_backup": full,
        "league": league.slug,
    }


def league_export(*, league: League, full: bool, now: datetime | None = None) -> dict:
    """The league's archive as a JSON-able dict (rows in key order, so two exports of the
    same data are equal but for `exported_at`). Holds the whole league in memory: the
    download and the command write `league_export_text`, the same text in flat memory."""
    accounts: dict[int, dict] = {}
    sections = []
    for section in SECTIONS:
        parts: dict[str, list[dict]] = {}
        for part in section.parts:
            if part.personal and not full:
                continue
            parts[part.label] = list(_part_rows(part, league, full, accounts))
        sections.append({"name": section.name, "models": parts})
    return _head(league, full, now) | {"accounts": _accounts(accounts), "sections": sections}


def dumps(archive: dict) -> str:
    return json.dumps(archive, ensure_ascii=False, indent=1, sort_keys=False) + "\n"


def _json(value: Any, depth: int) -> str:
    """`value` as `dumps` writes it `depth` levels in."""
    text = json.dumps(value, ensure_ascii=False, indent=1)
    return text.replace("\n", "\n" + " " * depth)  # JSON strings hold no raw newline


def league_export_text(*, league: League, full: bool, now: datetime | None = None) -> Iterator[str]:
    """`dumps(league_export(...))`, the same text, in pieces, a chunk of rows in memory at
    a time (a ten-season league's archive is larger than a worker should hold). The
    sections go to a temporary file first (spilled to disk past 1 MB): the accounts they
    name come before them in the text."""
    accounts: dict[int, dict] = {}
    with tempfile.SpooledTemporaryFile(max_size=1 << 20, mode="w+", encoding="utf-8") as body:
        body.write(' "sections": [')
        for s_index, section in enumerate(SECTIONS):
            body.write(("," if s_index else "") + "\n  {\n   " + _json("name", 0) + ": ")
            body.write(_json(section.name, 0) + ',\n   "models": {')
            parts = [p for p in section.parts if full or not p.personal]
            for p_index, part in enumerate(parts):
                body.write(("," if p_index else "") + "\n    " + _json(part.label, 0) + ": [")
                empty = True
                for row in _part_rows(part, league, full, accounts):
                    body.write(("\n" if empty else ",\n") + "     " + _json(row, 5))
                    empty = False
                body.write("]" if empty else "\n    ]")
            body.write("}" if not parts else "\n   }")
            body.write("\n  }")
        body.write("]" if not SECTIONS else "\n ]")
        body.write("\n}\n")
        head = _head(league, full, now) | {"accounts": _accounts(accounts)}
        text = _json(head, 0)
        yield text[: text.rindex("\n}")] + ",\n"
        body.seek(0)
        while piece := body.read(1 << 16):
            yield piece


# ----------------------------------------------------------------------------- restore


def _bad(message: str) -> DomainError:
    return DomainError("bad_archive", message, field="archive")


def _check_shape(archive: Any) -> dict[str, dict[str, list[dict]]]:
    """The archive's sections by name, after checking its format and shape."""
    if not isinstance(archive, dict) or archive.get("format") != FORMAT:
        raise _bad(f"This is not a Marker league archive (format {FORMAT!r}).")
    version = archive.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version <= VERSION:
        raise _bad(f"Archive version {version!r} is not one this Marker reads (1–{VERSION}).")
    if not isinstance(archive.get("league"), str) or not archive["league"]:
        raise _bad("The archive does not name its league.")
    known = {s.name for s in SECTIONS}
    by_name: dict[str, dict[str, list[dict]]] = {}
    sections = archive.get("sections")
    if not isinstance(sections, list):
        raise _bad("The archive has no list of sections.")
    for section in sections:
        if not isinstance(section, dict) or not isinstance(section.get("models"), dict):
            raise _bad("A section of the archive is not an object with its models.")
        name = section.get("name")
        if name not in known:
            raise _bad(f"The archive has a section this Marker does not know: {name!r}.")
        models_by_label: dict[str, list[dict]] = {}
        for label, rows in section["models"].items():
            if not isinstance(rows, list) or not all(
                isinstance(r, dict) and isinstance(r.get("id"), int) for r in rows
            ):
                raise _bad(f"The rows of {label} are not a list of objects with ids.")
            current = MOVED_LABELS.get(label, label)
            if current in models_by_label:
                raise _bad(f"The archive holds the rows of {current} twice (as {label} too).")
            models_by_label[current] = rows
        by_name[name] = models_by_label
    leagues = by_name.get("league", {}).get("leagues.league", [])
    if len(leagues) != 1 or leagues[0].get("slug") != archive["league"]:
        raise _bad("The archive's league section must hold its one league.")
    if not isinstance(archive.get("accounts", []), list):
        raise _bad("The archive's accounts are not a list.")
    return by_name


def _restore_accounts(archive: dict) -> dict[int, int]:
    """Old account id → this instance's account (found by username, or created with no
    usable password)."""
    mapping: dict[int, int] = {}
    if not archive.get("full_backup"):
        return mapping
    for account in archive.get("accounts", []):
        if not isinstance(account, dict) or not account.get("username"):
            raise _bad("An account in the archive has no username.")
        user = User.objects.filter(username=account["username"]).first()
        if user is None:
            user = User(**{k: account[k] for k in _ACCOUNT_FIELDS if k in account})
            user.set_unusable_password()
            user.save()
        mapping[account["id"]] = user.pk
    return mapping


def _stamped(f: models.Field) -> bool:
    return bool(getattr(f, "auto_now_add", False) or getattr(f, "auto_now", False))


#: A nullable foreign key whose row is not restored yet: (attname, old key, target label).
Forward = tuple[str, int, str]


def _load_row(
    part: Part,
    row: dict,
    keys: dict[str, dict[int, int]],
    accounts: dict[int, int],
    forward: list[Forward],
) -> dict[str, Any]:
    """The row's values for this instance. A nullable foreign key to a row not restored
    yet is left empty and noted in `forward`, to be filled in at the end."""
    values: dict[str, Any] = {}
    for f in _fields(part.model):
        if f.attname not in row:
            continue  # an archive older than the field: the model's default
        value = row[f.attname]
        if f.is_relation and value is not None:
            related: Any = f.related_model
            target = related._meta.label_lower
            new = accounts.get(value) if target == _USER_LABEL else keys.get(target, {}).get(value)
            if new is None and not f.null:
                raise _bad(f"{part.label} {row['id']} points at {target} {value}, not in it.")
            if new is None and target != _USER_LABEL:
                if not isinstance(value, int) or isinstance(value, bool):
                    raise _bad(f"{part.label} {row['id']}: bad {f.name} ({value!r}).")
                forward.append((f.attname, value, target))
            value = new
        elif value is not None:
            try:
                value = f.to_python(value)
            except Exception as exc:  # a ValidationError, or a type the field rejects
                raise _bad(f"{part.label} {row['id']}: bad {f.name} ({exc}).") from None
        values[f.attname] = value
    return values


def _fill_forward_keys(
    forwards: list[tuple[Part, models.Model, list[Forward]]], keys: dict[str, dict[int, int]]
) -> None:
    """Point the nullable keys that pointed forward at their restored rows (a key whose
    row the archive does not hold stays empty)."""
    changed: dict[type[models.Model], tuple[list[models.Model], set[str]]] = {}
    for part, obj, forward in forwards:
        for attname, old, target in forward:
            new = keys.get(target, {}).get(old)
            if new is not None:
                setattr(obj, attname, new)
                objs, names = changed.setdefault(part.model, ([], set()))
                if not objs or objs[-1] is not obj:
                    objs.append(obj)
                names.add(attname)
    for model, (objs, names) in changed.items():
        model._default_manager.bulk_update(objs, sorted(names), batch_size=500)


def _restore_links(
    links: list[tuple[Part, int, dict]], keys: dict[str, dict[int, int]], accounts: dict[int, int]
) -> None:
    """The many-to-many links, between restored rows (a related row the archive does not
    hold is left out), one insert per field."""
    made: dict[Any, list[models.Model]] = {}
    for part, old, row in links:
        new = keys[part.label].get(old)
        if new is None:
            continue
        for field in _m2m_fields(part.model):
            related = row.get(field.name, [])
            if not isinstance(related, list) or not all(
                isinstance(pk, int) and not isinstance(pk, bool) for pk in related
            ):
                raise _bad(f"{part.label} {old}: bad {field.name} (a list of keys).")
            target = field.related_model._meta.label_lower  # type: ignore[union-attr]
            mapping = accounts if target == _USER_LABEL else keys.get(target, {})
            through = _through(field)
            source, other = f"{field.m2m_field_name()}_id", f"{field.m2m_reverse_field_name()}_id"
            made.setdefault(through, []).extend(
                through(**{source: new, other: mapping[pk]}) for pk in related if pk in mapping
            )
    for through, rows in made.items():
        # A row reused (a player found by account) may have the link already.
        through._default_manager.bulk_create(rows, ignore_conflicts=True, batch_size=500)


def _where(frame: Frame, old_id: int) -> str:
    """A restored frame as the archive's reader finds it: its id in the archive, and its
    fixture or cup tie and number."""
    if frame.match is not None:
        fixture = frame.match.fixture
        day = f" on {fixture.date:%-d %b %Y}" if fixture.date else ""
        at = f"{fixture.home.name} v {fixture.away.name}{day}, frame {frame.number}"
    else:
        friendly = getattr(frame, "friendly", None)
        at = friendly.title if friendly is not None else f"frame {frame.number}"
    return f"frame {old_id} in the archive ({at})"


def _check_shot_logs(frames: dict[int, int]) -> None:
    """Every restored shot log replays through the rules engine (`frame_rebuild`), or the
    restore is refused naming the frame and the event the engine refuses: nothing is
    written (the caller's transaction rolls back)."""
    old_of = {new: old for old, new in frames.items()}
    with_events = (
        Frame.objects.filter(pk__in=old_of, events__isnull=False)
        .distinct()
        .select_related("match__fixture__home", "match__fixture__away", "friendly")
        .order_by("pk")
    )
    for frame in with_events:
        report = frame_rebuild(frame_id=frame.pk)
        refusals = [p for p in report.problems if not CACHE_PROBLEM.search(p)]
        if refusals:
            raise _bad(
                f"The shot log of {_where(frame, old_of[frame.pk])} cannot be replayed: "
                f"{refusals[0]}. Nothing was restored."
            )


@transaction.atomic
def league_import(*, archive: Any) -> League:
    """Restore a league from its archive into this instance, which must not have a league
    with its slug. All or nothing. Returns the new league."""
    sections = _check_shape(archive)
    if League.objects.filter(slug=archive["league"]).exists():
        raise DomainError(
            "league_exists",
            f"This instance already has a league {archive['league']!r}: restore into an "
            "instance without it (or delete it first).",
            field="archive",
            status=409,
        )
    accounts = _restore_accounts(archive)
    keys: dict[str, dict[int, int]] = {}
    # Filled in once every row is in: nullable keys pointing forward, and M2M links.
    forwards: list[tuple[Part, models.Model, list[Forward]]] = []
    links: list[tuple[Part, int, dict]] = []
    for section in SECTIONS:
        data = sections.get(section.name, {})
        for part in section.parts:
            mapped = keys.setdefault(part.label, {})
            created: list[tuple[int, dict[str, Any], models.Model]] = []
            m2m = _m2m_fields(part.model)
            for row in data.get(part.label, []):
                forward: list[Forward] = []
                values = _load_row(part, row, keys, accounts, forward)
                if part.remap is not None:
                    part.remap(values, keys)
                existing = part.match_existing(values) if part.match_existing else None
                if existing is not None:
                    mapped[row["id"]] = existing.pk
                else:
                    obj = part.model(**values)
                    created.append((row["id"], values, obj))
                    if forward:
                        forwards.append((part, obj, forward))
                if m2m:
                    links.append((part, row["id"], row))
            objs = [obj for _, _, obj in created]
            for name, fresh in part.renew:
                wanted = [getattr(obj, name) for obj in objs]
                taken: set = set()
                for start in range(0, len(wanted), 1000):
                    chunk = wanted[start : start + 1000]
                    found = part.model._default_manager.filter(**{f"{name}__in": chunk})
                    taken.update(found.values_list(name, flat=True))
                for obj in objs:
                    if getattr(obj, name) in taken:
                        setattr(obj, name, fresh())
            part.model._default_manager.bulk_create(objs, batch_size=500)
            for old, _, obj in created:
                mapped[old] = obj.pk
            # bulk_create stamps auto_now_add fields with the time of the restore: put
            # back the archive's (bulk_update writes the values as they are).
            stamped = [f.attname for f in _fields(part.model) if _stamped(f)]
            if stamped and objs:
                for _, values, obj in created:
                    for name in stamped:
                        if values.get(name) is not None:
                            setattr(obj, name, values[name])
                part.model._default_manager.bulk_update(objs, stamped, batch_size=500)
    _fill_forward_keys(forwards, keys)
    _restore_links(links, keys, accounts)
    _check_shot_logs(keys.get(Frame._meta.label_lower, {}))
    league = League.objects.get(
        pk=keys["leagues.league"][sections["league"]["leagues.league"][0]["id"]]
    )
    for section in SECTIONS:
        if section.rebuild is not None:
            section.rebuild(league)
    return league
