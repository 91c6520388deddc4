"""`{{ pence|pounds }}` and the links other apps' pages show to who may follow them."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import format_html

from money.services import pounds as _pounds

register = template.Library()


@register.filter
def pounds(pence: int | None) -> str:
    return "" if pence is None else _pounds(int(pence))


@register.simple_tag(takes_context=True)
def money_link(context: Any, obj: Any) -> str:
    """A season page's "Money" button (treasurer, secretary), or a team page's
    "Statement" button (its captains, treasurer, secretary); nothing for anyone else."""
    user = context.get("user")
    if user is None or not user.is_authenticated:
        return ""
    if obj._meta.model_name == "season":
        if user.has_perm("money.manage", obj):
            return format_html(
                '<a class="button secondary" href="{}">Money</a>',
                reverse("money-ledger", args=[obj.pk]),
            )
        return ""
    if user.has_perm("money.view_statement", obj):
        return format_html(
            '<a class="button secondary" href="{}">Money: statement</a>',
            reverse("money-team-statement", args=[obj.pk]),
        )
    return ""
