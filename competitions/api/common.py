"""What the competitions API's views share: the error responses of the schema."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse

from leagues.serializers import ErrorSerializer

ERRORS = {400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer}
CONFLICT = {
    **ERRORS,
    409: OpenApiResponse(ErrorSerializer, description="Not now: the state forbids it."),
}
