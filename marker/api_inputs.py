"""What the API accepts, and its bounds: a JSON parser that refuses what the database or
the interpreter cannot hold, strict ids, whole-number query filters, page sizes.

Every refusal is a 4xx with a code (`marker.api_errors`): nothing reaches a 500.
"""

from __future__ import annotations

import codecs
import json
import math
import re
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.db import models
from rest_framework import exceptions, pagination, parsers, serializers
from rest_framework.request import Request

from marker.errors import DomainError

# The database's integer columns: an `id` is a bigint, a score an integer.
BIGINT_MAX = 2**63 - 1
INT_MAX = 2**31 - 1

# How deep a JSON body may nest: the deepest thing the API takes is a list of objects.
JSON_MAX_DEPTH = 32

# PostgreSQL stores no NUL character in text or jsonb, and no string can be encoded with a
# lone surrogate (JSON may spell both, as \u0000 and \ud800).
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
_DIGITS = re.compile(r"[0-9]{1,19}", re.ASCII)


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, refusing with a 400 (`parse_error`) what it would otherwise pass
    on to a 500: nesting deeper than `JSON_MAX_DEPTH` (deep enough to exhaust the
    interpreter's recursion), NUL characters and lone surrogates in strings (PostgreSQL
    cannot store them), and numbers that are not finite (`1e999`)."""

    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        parser_context = parser_context or {}
        encoding = parser_context.get("encoding", settings.DEFAULT_CHARSET)
        try:
            decoded = codecs.getreader(encoding)(stream)
            data = json.load(decoded, parse_constant=_no_constant)
        except RecursionError:
            raise _refused(f"JSON nested deeper than {JSON_MAX_DEPTH} levels.") from None
        except ValueError as exc:
            raise _refused(f"JSON parse error - {exc}") from None
        check_json(data)
        return data


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _refused(message: str) -> exceptions.ParseError:
    return exceptions.ParseError(message, code="parse_error")


def check_json(data: Any) -> None:
    """Raise ParseError if parsed JSON nests too deep or holds what cannot be stored."""
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth >= JSON_MAX_DEPTH:
                raise _refused(f"JSON nested deeper than {JSON_MAX_DEPTH} levels.")
            if isinstance(item, dict):
                for key, value in item.items():
                    _check_string(key)
                    stack.append((value, depth + 1))
            else:
                stack.extend((value, depth + 1) for value in item)
        elif isinstance(item, str):
            _check_string(item)
        elif isinstance(item, float) and not math.isfinite(item):
            raise _refused("JSON numbers must be finite.")


def _check_string(text: str) -> None:
    if _UNSTORABLE.search(text):
        raise _refused(
            "Strings may not contain NUL characters or lone surrogates (\\u0000, \\ud800)."
        )


class Pagination(pagination.LimitOffsetPagination):
    """Limit/offset pages of at most `max_limit` items (a larger `limit` gets that many)."""

    default_limit = 100
    max_limit = 500


def digits(text: str) -> bool:
    """Whether `text` is 1 to 19 ASCII digits: what `int()` reads and a bigint holds.
    (`str.isdigit` also takes "²" and other digits `int()` refuses, a 500.)"""
    return _DIGITS.fullmatch(text) is not None


def int_param(request: Request, name: str) -> int | None:
    """A query parameter that names an id: None when absent or empty, else a whole number
    from 1 to 2⁶³−1, or a 400 (`bad_parameter`)."""
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return None
    if not _DIGITS.fullmatch(raw) or not 1 <= int(raw) <= BIGINT_MAX:
        raise DomainError(
            "bad_parameter",
            f"`{name}` must be a whole number (an id), not {raw[:40]!r}.",
            field=name,
        )
    return int(raw)


class StrictPrimaryKeyRelatedField(serializers.PrimaryKeyRelatedField[models.Model]):
    """An id: a JSON integer (or a string of digits, from a form) from 1 to 2⁶³−1.

    DRF's field hands anything to the ORM, which truncates `3.7` to 3 and takes `true` for
    1: here a float, a boolean or any other type is refused."""

    def to_internal_value(self, data: Any) -> models.Model:
        if isinstance(data, bool) or not isinstance(data, int | str):
            self.fail("incorrect_type", data_type=type(data).__name__)
        if isinstance(data, str):
            if not _DIGITS.fullmatch(data):
                self.fail("incorrect_type", data_type="str")
            data = int(data)
        if not 1 <= data <= BIGINT_MAX:
            self.fail("does_not_exist", pk_value=data)
        model: models.Model = super().to_internal_value(data)
        return model


def id_list_field(queryset: Any, *, max_length: int, **kwargs: Any) -> serializers.ListField:
    """A list of at most `max_length` ids of `queryset`."""
    return serializers.ListField(
        child=StrictPrimaryKeyRelatedField(queryset=queryset), max_length=max_length, **kwargs
    )
