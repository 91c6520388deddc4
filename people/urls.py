"""Personal data pages (included from config/urls.py)."""

from django.urls import path

from . import views

urlpatterns = [
    path("me/data/", views.my_data, name="my-data"),
    path("me/data.json", views.my_data_download, name="my-data-download"),
    path("me/categories/", views.my_categories, name="my-categories"),
    path("me/calendar/renew/", views.my_calendar_renew, name="my-calendar-renew"),
    path("calendar/<str:token>.ics", views.person_calendar, name="person-calendar"),
    path("notifications/", views.my_messages, name="notifications-choices"),
    path("notifications/<str:token>/", views.token_messages, name="notifications-choices-token"),
    path("players/<int:pk>/erase/", views.person_erase, name="person-erase"),
]
