"""API errors always answer `{"error": code, "message": text}` (plus field details)."""

from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from marker.errors import DomainError


def exception_handler(exc, context):
    if isinstance(exc, DomainError):
        return Response(exc.as_dict(), status=exc.status)
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(
            exc.message_dict if hasattr(exc, "error_dict") else exc.messages
        )
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        response.data = {
            "error": "invalid",
            "message": "Some fields are not valid.",
            "fields": response.data,
        }
        response.status_code = status.HTTP_400_BAD_REQUEST
    elif isinstance(exc, exceptions.APIException):
        detail = response.data.get("detail", "") if isinstance(response.data, dict) else ""
        response.data = {
            "error": exc.get_codes() if isinstance(exc.get_codes(), str) else "error",
            "message": str(detail),
        }
    return response
