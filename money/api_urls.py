from django.urls import path

from . import api

urlpatterns = [
    path("seasons/<int:pk>/ledger/", api.LedgerView.as_view(), name="api-money-ledger"),
    path("seasons/<int:pk>/balances/", api.BalancesView.as_view(), name="api-money-balances"),
    path("ledger/<int:pk>/reverse/", api.ReverseView.as_view(), name="api-money-reverse"),
    path(
        "teams/<int:pk>/statement/",
        api.TeamStatementView.as_view(),
        name="api-money-team-statement",
    ),
    path(
        "seasons/<int:season>/players/<int:pk>/statement/",
        api.PlayerStatementView.as_view(),
        name="api-money-player-statement",
    ),
]
