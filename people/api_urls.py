from django.urls import path

from . import api

urlpatterns = [
    path("me/data/", api.MyDataView.as_view(), name="api-my-data"),
    path("me/privacy/", api.MyPrivacyView.as_view(), name="api-my-privacy"),
    path("players/<int:pk>/erase/", api.PersonEraseView.as_view(), name="api-person-erase"),
]
