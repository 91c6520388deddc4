"""API errors always answer `{"error": code, "message": text}` (plus details: `field`,
`fields`, or what a refusal carries), on every 4xx and 5xx under `/api/`.

Three places make them:

- `exception_handler` (DRF's `EXCEPTION_HANDLER`): whatever an API view raises, Django's
  own exceptions included (`Http404` from a look-up, `PermissionDenied`, an oversized or
  malformed body);
- `page_not_found`, `bad_request`, `permission_denied`, `server_error` (the URLconf's
  `handler404`/`400`/`403`/`500`): a path under `/api/` that matches no view (`/api/teams/x/`),
  and an unexpected exception, get JSON; other paths keep Django's pages;
- `marker.middleware.RequestSizeLimit`: a body over `DATA_UPLOAD_MAX_MEMORY_SIZE` (413).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import (
    PermissionDenied as DjangoPermissionDenied,
)
from django.core.exceptions import (
    RequestDataTooBig,
    SuspiciousOperation,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from marker.errors import DomainError

API_PREFIX = "/api/"


class ErrorSerializer(serializers.Serializer[Any]):
    """Every error the API answers with (4xx and 5xx): a stable code and a message."""

    error = serializers.CharField(help_text="A stable machine code.")
    message = serializers.CharField(help_text="What went wrong, for people.")
    field = serializers.CharField(required=False, help_text="The input field at fault, if one.")

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        fields = super().get_fields()
        # `fields` names a Serializer attribute: declared here instead.
        fields["fields"] = serializers.DictField(
            required=False,
            help_text="Per-field messages, when the input did not validate (`invalid`).",
        )
        return fields


def is_api_request(request: HttpRequest) -> bool:
    return request.path_info.startswith(API_PREFIX) or request.path.startswith(API_PREFIX)


def error_body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"error": code, "message": message, **extra}


def json_error(code: str, message: str, status_code: int, **extra: Any) -> JsonResponse:
    return JsonResponse(error_body(code, message, **extra), status=status_code)


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "The request body is too large."
    default_code = "too_large"


def _as_api_exception(exc: Exception) -> Exception:
    """Django's exceptions, as the DRF exceptions they stand for."""
    if isinstance(exc, Http404):
        message = str(exc) or "Not found."
        return exceptions.NotFound(message)
    if isinstance(exc, DjangoPermissionDenied):
        return exceptions.PermissionDenied(str(exc) or None)
    if isinstance(exc, RequestDataTooBig):
        return PayloadTooLarge()
    if isinstance(exc, (TooManyFieldsSent, TooManyFilesSent)):
        return exceptions.ParseError("Too many fields in the request.", code="too_many_fields")
    if isinstance(exc, SuspiciousOperation):
        return exceptions.ParseError("The request was not understood.", code="bad_request")
    if isinstance(exc, DjangoValidationError):
        return exceptions.ValidationError(
            exc.message_dict if hasattr(exc, "error_dict") else exc.messages
        )
    return exc


def _code_of(exc: exceptions.APIException) -> str:
    codes = exc.get_codes()
    if isinstance(codes, str):
        return codes
    if isinstance(codes, list) and len(codes) == 1 and isinstance(codes[0], str):
        return codes[0]
    return "error"


def _message_of(data: Any) -> str:
    if isinstance(data, dict):
        data = data.get("detail", "")
    if isinstance(data, list):
        return " ".join(str(item) for item in data)
    return str(data)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, DomainError):
        return Response(exc.as_dict(), status=exc.status)
    exc = _as_api_exception(exc)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None  # a server error: Django's handler500 (`server_error`) answers
    if isinstance(exc, exceptions.ValidationError):
        response.data = {
            "error": "invalid",
            "message": "Some fields are not valid.",
            "fields": response.data
            if isinstance(response.data, dict)
            else {"non_field_errors": response.data},
        }
        response.status_code = status.HTTP_400_BAD_REQUEST
    elif isinstance(exc, exceptions.APIException):
        response.data = error_body(_code_of(exc), _message_of(response.data))
    return response


# ------------------------------------------------ the URLconf's handlers (DEBUG off)


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if is_api_request(request):
        return json_error("not_found", "There is nothing at this address.", 404)
    return defaults.page_not_found(request, exception)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if is_api_request(request):
        if isinstance(exception, RequestDataTooBig):
            return json_error("too_large", "The request body is too large.", 413)
        return json_error("bad_request", "The request was not understood.", 400)
    return defaults.bad_request(request, exception)  # type: ignore[arg-type]


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if is_api_request(request):
        return json_error("permission_denied", "You may not do this.", 403)
    return defaults.permission_denied(request, exception)  # type: ignore[arg-type]


def server_error(request: HttpRequest) -> HttpResponse:
    if is_api_request(request):
        return json_error(
            "server_error", "Something went wrong on our side; it has been logged.", 500
        )
    return defaults.server_error(request)
