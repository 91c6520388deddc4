"""Template context: what the signed-in user is, for menus; the site notices."""

from __future__ import annotations

from django.utils import timezone

from leagues.notices.selectors import notices_shown


def roles(request):
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"is_site_admin": False, "my_teams": []}
    return {
        # League roles are asked of each page's objects (a secretary of one league is a
        # stranger to another); the menu only knows the site administrator.
        "is_site_admin": bool(user.is_superuser),
        "my_teams": list(user.captained_teams.select_related("season").all()[:5])
        + list(user.vice_captained_teams.select_related("season").all()[:5]),
    }


class Notices:
    """The site notices a page shows, read once (lazily: a page that shows none never asks):
    the site's, and its league's on a league's page — the league of the page's address
    (`/<league>/…`), or of the page's own league, fixture or match (`for_page`)."""

    def __init__(self, request) -> None:
        self.request = request
        self._shown: dict[object, list] = {}

    def for_page(self, league_id: int | None = None) -> list:
        match = getattr(self.request, "resolver_match", None)
        slug = match.kwargs.get("league") if match is not None else None
        key = league_id or slug
        if key not in self._shown:
            if league_id is not None:
                found = notices_shown(now=timezone.now(), league_id=league_id)
            else:
                found = notices_shown(now=timezone.now(), league_slug=slug)
            self._shown[key] = found
        return self._shown[key]

    def __iter__(self):
        return iter(self.for_page())


def notices(request):
    return {"site_notices": Notices(request)}
