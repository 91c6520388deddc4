"""The pages of organisations above leagues."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_GET

from ..models import Organisation
from . import selectors


@require_GET
def organisation_list(request):
    return render(
        request,
        "leagues/organisation_list.html",
        {"organisations": list(selectors.organisations())},
    )


@require_GET
def organisation_home(request, slug: str):
    try:
        page = selectors.organisation_page(slug)
    except Organisation.DoesNotExist:
        raise Http404("No such organisation.") from None
    return render(request, "leagues/organisation.html", page)
