"""The product's URLs plus the benches' floors: a bare authenticated insert (through the
same session authentication, CSRF check and JSON parsing as a shot) and a bare Django view
answering 304 (the same middleware as a live poll). Routed only by bench/settings_bench.py."""

from django.http import HttpResponseNotModified
from django.urls import path
from django.utils import timezone
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from config.urls import handler400, handler403, handler404, handler500
from config.urls import urlpatterns as product_urlpatterns
from frames.models import MatchLog


class BareInsertView(APIView):
    """The shot's floor: DRF's session authentication and CSRF, JSON parsing, one INSERT."""

    permission_classes = [IsAuthenticated]

    def post(self, request, pk: int):
        MatchLog.objects.create(
            match_id=pk,
            actor=request.user,
            action="bench",
            detail=request.data,
            at=timezone.now(),
        )
        return Response({"ok": True}, status=201)


def bare_not_modified(request, pk: int):
    """The live poll's floor: a plain Django view that answers 304 to everything."""
    response = HttpResponseNotModified()
    response["ETag"] = '"bare"'
    response["Cache-Control"] = "no-cache"
    return response


urlpatterns = [
    path("bench/matches/<int:pk>/insert/", BareInsertView.as_view()),
    path("bench/matches/<int:pk>/not-modified/", bare_not_modified),
    *product_urlpatterns,
]

__all__ = ["handler400", "handler403", "handler404", "handler500", "urlpatterns"]
