"""The OpenAPI schema's house rules (drf-spectacular's `DEFAULT_SCHEMA_CLASS`).

- Every operation lists the errors it can really answer with, as the one `Error` component
  (`marker.api_errors.ErrorSerializer`), besides those a view declares: 404 where the path
  names an object, 400/413/415 where it takes a body (or whole-number query filters), 403
  where it is not open to everyone.
- A read anyone may make is marked public: its `security` includes `{}` (no credentials);
  a write never is.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from rest_framework import permissions

from marker.api_errors import ErrorSerializer
from marker.permissions import ReadOnlyOrPredicate

_PAGING = {"limit", "offset"}

ERROR_DESCRIPTIONS = {
    "400": "Bad input: a stable `error` code, and `fields` when the input did not validate.",
    "403": "Not signed in, or not yours to do.",
    "404": "No such object (or nothing at this address).",
    "413": "The request body is too large (`too_large`).",
    "415": "The body is not JSON, a form or multipart (`unsupported_media_type`).",
}


class AutoSchema(SpectacularAutoSchema):
    def get_operation(
        self, path: str, path_regex: str, path_prefix: str, method: str, registry: Any
    ) -> Any:
        operation = super().get_operation(path, path_regex, path_prefix, method, registry)
        if operation is not None:
            self._add_errors(operation)
        return operation

    def _is_public_read(self) -> bool:
        if self.method not in permissions.SAFE_METHODS:
            return False
        return all(
            isinstance(p, (permissions.AllowAny, ReadOnlyOrPredicate))  # noqa: UP038
            for p in self.view.get_permissions()
        )

    def get_auth(self) -> list[dict[str, Any]]:
        """Public reads include `{}`; a write always needs a signed-in user, even where the
        view lets everyone in and asks the predicate itself (the pad's `AllowAny`)."""
        auths = [auth for auth in super().get_auth() if auth != {}]
        if self._is_public_read():
            auths.append({})
        return auths

    def _add_errors(self, operation: dict[str, Any]) -> None:
        parameters = operation.get("parameters", [])
        codes = []
        if "requestBody" in operation:
            codes += ["400", "413", "415"]
        elif any(
            p["in"] == "query"
            and p["name"] not in _PAGING
            and p.get("schema", {}).get("type") == "integer"
            for p in parameters
        ):
            codes.append("400")
        if not self._is_public_read():
            codes.append("403")
        if any(p["in"] == "path" for p in parameters):
            codes.append("404")
        responses = operation["responses"]
        missing = [code for code in codes if code not in responses]
        if not missing:
            return
        ref = self.resolve_serializer(ErrorSerializer, "response").ref
        for code in missing:
            responses[code] = {
                "content": {"application/json": {"schema": ref}},
                "description": ERROR_DESCRIPTIONS[code],
            }
        operation["responses"] = dict(sorted(responses.items()))
