"""The referee pad's API (mounted at /api/)."""

from django.urls import path

from . import pad_api

urlpatterns = [
    path("frames/<int:pk>/events/", pad_api.FrameEventsView.as_view(), name="api-frame-events"),
    path("frames/<int:pk>/state/", pad_api.FrameStateView.as_view(), name="api-frame-state"),
    path("frames/<int:pk>/confirm/", pad_api.FrameConfirmView.as_view(), name="api-frame-confirm"),
    path("games/<str:game_id>/", pad_api.GameDescribeView.as_view(), name="api-game-describe"),
    path("matches/<int:pk>/live/", pad_api.MatchLiveView.as_view(), name="api-match-live"),
    path("pad/session/", pad_api.PadSessionView.as_view(), name="api-pad-session"),
]

if pad_api.bench_endpoints_enabled():  # bench/bench_shots.py's baseline; never in production
    urlpatterns.append(
        path(
            "bench/matches/<int:pk>/insert/",
            pad_api.BenchInsertView.as_view(),
            name="api-bench-insert",
        )
    )
