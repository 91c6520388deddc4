"""The Content-Security-Policy header, built once per process (marker.middleware): the
same header django-csp builds, on pages and API answers; a response's own policy and a
nonce still go through django-csp."""

from __future__ import annotations

import pytest
from csp.constants import HEADER, NONCE, SELF
from csp.middleware import CSPMiddleware as DjangoCSP
from csp.utils import build_policy
from django.http import HttpResponse
from django.test import Client, RequestFactory, override_settings

from marker.middleware import CSPMiddleware

pytestmark = pytest.mark.django_db


def test_pages_and_api_answers_carry_the_policy_django_csp_builds():
    for url in ("/", "/api/pad/session/"):
        answer = Client().get(url)
        assert answer.status_code == 200
        assert answer[HEADER] == build_policy()


def test_a_change_of_policy_is_seen():
    before = Client().get("/")[HEADER]
    with override_settings(CONTENT_SECURITY_POLICY={"DIRECTIVES": {"default-src": [SELF]}}):
        assert Client().get("/")[HEADER] == "default-src 'self'"
    assert Client().get("/")[HEADER] == before


def _both(setup):
    """The header ours and django-csp's own middleware give one request and response."""
    answers = []
    for middleware in (CSPMiddleware, DjangoCSP):
        request = RequestFactory().get("/x/")
        mw = middleware(lambda r: HttpResponse())
        mw.process_request(request)
        response = HttpResponse()
        setup(request, response)
        answers.append(mw.process_response(request, response).get(HEADER))
    return answers


def test_a_nonce_or_a_response_policy_goes_through_django_csp():
    with override_settings(
        CONTENT_SECURITY_POLICY={"DIRECTIVES": {"default-src": [SELF], "script-src": [SELF, NONCE]}}
    ):

        def nonce(request, response):
            request.nonce_used = str(request.csp_nonce)

        ours, theirs = _both(nonce)
        assert "'nonce-" in ours and "'nonce-" in theirs

        def update(request, response):
            response._csp_update = {"img-src": ["https://img.example"]}

        ours, theirs = _both(update)
        assert ours == theirs and "https://img.example" in ours

        def exempt(request, response):
            response._csp_exempt = True

        assert _both(exempt) == [None, None]
