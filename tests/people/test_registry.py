"""The personal data registry covers every model: a field that can hold a person's name or
contact (the rule in `marker.personal_data`) is claimed by a section or declared to hold
no personal data, with a reason."""

from __future__ import annotations

from django.apps import apps
from django.db import models
from django.test.utils import isolate_apps

from leagues.models import Player
from marker.personal_data import Section, may_hold_personal_data, unclaimed
from people import registry


def test_every_field_that_can_hold_a_name_or_contact_is_in_a_section():
    assert registry.unclaimed_fields() == []


def test_every_claim_and_declaration_names_a_real_field():
    assert registry.unknown_fields() == []


def test_section_names_are_distinct_and_each_does_something():
    names = [s.name for s in registry.sections()]
    assert len(names) == len(set(names))
    assert all(s.export is not None or s.erase is not None for s in registry.sections())


def test_the_rule_by_kind_and_by_name():
    assert may_hold_personal_data(models.EmailField(name="backup"))
    assert may_hold_personal_data(models.GenericIPAddressField(name="ip"))
    assert may_hold_personal_data(models.JSONField(name="state"))
    assert may_hold_personal_data(models.CharField(name="nickname", max_length=9))
    assert may_hold_personal_data(models.TextField(name="contact_phone"))
    assert not may_hold_personal_data(models.CharField(name="colour", max_length=9))
    assert not may_hold_personal_data(
        models.CharField(name="name", max_length=4, choices=[("home", "Home")])
    )
    assert not may_hold_personal_data(models.SlugField(name="name"))


@isolate_apps("leagues")
def test_a_new_model_holding_a_name_in_no_section_fails_the_registry_check():
    class Nickname(models.Model):
        """A model added later (defined here, never migrated)."""

        nickname = models.CharField(max_length=40)
        contact = models.EmailField()
        labels = models.JSONField(default=dict)
        player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
        colour = models.CharField(max_length=10)

        class Meta:
            app_label = "leagues"

        def __str__(self) -> str:
            return self.nickname

    everything = [*apps.get_models(), Nickname]
    missing = registry.unclaimed_fields(everything)
    assert missing == [
        "leagues.Nickname.nickname",
        "leagues.Nickname.contact",
        "leagues.Nickname.labels",
        "leagues.Nickname.player",
    ]
    # A section claiming some and a declaration (with its reason) for the rest fix it;
    # a declaration without a reason does not.
    claimed = Section(
        "nicknames",
        ("leagues.Nickname.nickname", "leagues.Nickname.contact", "leagues.Nickname.player"),
        export=lambda person: [],
    )
    sections = (*registry.sections(), claimed)
    declared = {**registry.not_personal(), "leagues.Nickname.labels": " "}
    assert unclaimed(everything, sections, declared) == ["leagues.Nickname.labels"]
    declared["leagues.Nickname.labels"] = "colours by number"
    assert unclaimed(everything, sections, declared) == []
