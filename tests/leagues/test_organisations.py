"""Organisations above leagues: a county lists its member leagues, and each member league's
page links to it."""

import pytest
from django.urls import reverse

from leagues.models import Organisation, OrganisationRole
from leagues.permissions import is_organisation_officer, is_organisation_secretary
from tests.factories import LeagueFactory, UserFactory

pytestmark = pytest.mark.django_db


def _county():
    norwich, yarmouth, chester = (
        LeagueFactory(name="Norwich"),
        LeagueFactory(name="Yarmouth"),
        LeagueFactory(name="Chester"),
    )
    county = Organisation.objects.create(name="Norfolk County", slug="norfolk")
    county.leagues.add(norwich, yarmouth)
    return county, norwich, chester


def test_the_county_page_lists_its_member_leagues(client, django_assert_num_queries):
    county, norwich, chester = _county()
    with django_assert_num_queries(3):
        page = client.get(reverse("organisation-home", args=["norfolk"])).content.decode()
    assert "Norwich" in page and "Yarmouth" in page
    assert "Chester" not in page
    assert client.get(reverse("organisation-home", args=["nowhere"])).status_code == 404
    assert "Norfolk County" in client.get(reverse("organisation-list")).content.decode()


def test_a_member_league_links_to_its_county(client):
    county, norwich, chester = _county()
    assert county.get_absolute_url() in client.get(norwich.get_absolute_url()).content.decode()
    assert county.get_absolute_url() not in client.get(chester.get_absolute_url()).content.decode()


def test_organisation_officers():
    county, *_ = _county()
    secretary, officer, someone = UserFactory(), UserFactory(), UserFactory()
    OrganisationRole.objects.create(organisation=county, user=secretary, role="secretary")
    OrganisationRole.objects.create(organisation=county, user=officer, role="competitions_officer")
    assert is_organisation_secretary(secretary, county)
    assert not is_organisation_secretary(officer, county)
    assert is_organisation_officer(officer, county)
    assert not is_organisation_officer(someone, county)
    assert is_organisation_officer(UserFactory(is_superuser=True), county)
