"""The one error every service raises: a stable machine code and a human message."""

from __future__ import annotations

from typing import Any


class DomainError(Exception):
    """A refused command. `code` is stable (clients branch on it); `message` is for people.

    `field` names the input field at fault, when there is one, so forms can show the
    message beside it. `status` is the HTTP status the API answers with.
    """

    def __init__(
        self,
        code: str,
        message: str,
        *,
        field: str | None = None,
        status: int = 400,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
        self.status = status
        self.extra = extra or {}

    def as_dict(self) -> dict[str, Any]:
        body = {"error": self.code, "message": self.message}
        if self.field:
            body["field"] = self.field
        body.update(self.extra)
        return body
