from django.urls import path

from . import views

urlpatterns = [
    path("money/seasons/<int:pk>/", views.ledger, name="money-ledger"),
    path("money/seasons/<int:pk>/fees/", views.fees, name="money-fees"),
    path("money/seasons/<int:pk>/raise/", views.fees_raise, name="money-raise"),
    path("money/seasons/<int:pk>/charge/", views.charge, name="money-charge"),
    path("money/seasons/<int:pk>/payment/", views.payment, name="money-payment"),
    path("money/seasons/<int:pk>/reminders/", views.reminders, name="money-reminders"),
    path("money/seasons/<int:pk>/summary/", views.summary, name="money-summary"),
    path(
        "money/seasons/<int:pk>/export/<slug:sheet>.<slug:fmt>",
        views.export,
        name="money-export",
    ),
    path("money/entries/<int:pk>/reverse/", views.reverse_entry, name="money-reverse"),
    path("money/teams/<int:pk>/", views.team_statement, name="money-team-statement"),
    path(
        "money/seasons/<int:season>/players/<int:pk>/",
        views.player_statement,
        name="money-player-statement",
    ),
]
