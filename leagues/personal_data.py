"""What leagues holds of a person (`marker.personal_data`): the player record,
registrations, teams captained, officer roles, table emails, invitations, emails sent and
the roll of honour, with how each is erased."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from marker.personal_data import Erasure, Person, Section, iso, rewrite_rows, rewriter

from .models import (
    Availability,
    AwayDates,
    CalendarFeed,
    DirectoryPost,
    EligibilityLog,
    Honour,
    Invitation,
    LeagueRole,
    OrganisationRole,
    Player,
    PlayUp,
    PostConversation,
    PostMessage,
    Registration,
    SentNotification,
    Subscription,
    Team,
    Transfer,
    initials_of,
)

# ------------------------------------------------------------------------- the player


def _player(person: Person) -> dict[str, Any] | None:
    player = person.player
    if player is None:
        return None
    return {
        "id": player.pk,
        "name": player.name,
        "public_name": player.public_name,
        "email": player.email,
        "private_name": player.private_name,
        "date_of_birth": iso(player.date_of_birth),
        "plays_ladies": player.plays_ladies,
    }


def _player_erase(erasure: Erasure) -> None:
    """The record stays (results hang on it) under the new name, without contact or
    account; `erased_number` marks it erased."""
    player = erasure.player
    player.name = erasure.new_name
    player.email = ""
    player.private_name = False
    player.erased_number = erasure.number
    player.user = None
    player.date_of_birth = None
    player.plays_ladies = False
    player.save(
        update_fields=[
            "name",
            "email",
            "private_name",
            "erased_number",
            "user",
            "date_of_birth",
            "plays_ladies",
        ]
    )


def _registrations(person: Person) -> list[dict[str, Any]]:
    if person.player is None:
        return []
    return [
        {
            "season": r.season.name,
            "league": r.season.league.name,
            "team": r.team.name,
            "kind": r.kind,
            "status": r.status,
            "created_at": iso(r.created_at),
            "first_played_at": iso(r.first_played_at),
            "removed_at": iso(r.removed_at),
        }
        for r in Registration.objects.filter(player=person.player)
        .select_related("season__league", "team")
        .order_by("id")
    ]


def _teams_captained(person: Person) -> list[dict[str, Any]]:
    user = person.user
    if user is None:
        return []
    return [
        {
            "team": t.name,
            "season": t.season.name,
            "league": t.season.league.name,
            "role": "captain" if t.captain_id == user.pk else "vice-captain",
        }
        for t in Team.objects.filter(Q(captain=user) | Q(vice_captain=user))
        .select_related("season__league")
        .order_by("season_id", "name")
    ]


# ------------------------------------------------------------------------ officers


def _league_roles(person: Person) -> list[dict[str, Any]]:
    if person.user is None:
        return []
    return [
        {"league": r.league.name, "role": r.role, "created_at": iso(r.created_at)}
        for r in LeagueRole.objects.filter(user=person.user)
        .select_related("league")
        .order_by("league_id", "role")
    ]


def _league_roles_erase(erasure: Erasure) -> None:
    """An erased person holds no office."""
    if erasure.person.user is not None:
        LeagueRole.objects.filter(user=erasure.person.user).delete()


def _organisation_roles(person: Person) -> list[dict[str, Any]]:
    if person.user is None:
        return []
    return [
        {"organisation": r.organisation.name, "role": r.role, "created_at": iso(r.created_at)}
        for r in OrganisationRole.objects.filter(user=person.user)
        .select_related("organisation")
        .order_by("organisation_id", "role")
    ]


def _organisation_roles_erase(erasure: Erasure) -> None:
    """An erased person holds no office in a county or association either."""
    if erasure.person.user is not None:
        OrganisationRole.objects.filter(user=erasure.person.user).delete()


def _officer_invitations(person: Person) -> list[dict[str, Any]]:
    return [
        {
            "league": i.league.name if i.league else "",
            "role": i.role,
            "email": i.email,
            "created_at": iso(i.created_at),
            "sent_at": iso(i.sent_at),
            "accepted_at": iso(i.accepted_at),
        }
        for i in Invitation.objects.filter(email__in=person.emails, kind=Invitation.Kind.OFFICER)
        .select_related("league")
        .order_by("id")
    ]


def _officer_invitations_erase(erasure: Erasure) -> None:
    """Open invitations go; accepted ones (the record of who became an officer) keep no
    address."""
    emails = erasure.person.emails
    invitations = Invitation.objects.filter(email__in=emails, kind=Invitation.Kind.OFFICER)
    invitations.filter(accepted_at__isnull=True).delete()
    invitations.update(email="")


# ---------------------------------------------------------------- email and invitations


def _subscriptions_of(person: Person):
    user = person.user
    by_user = Q(user=user) if user is not None else Q(pk__in=[])
    return Subscription.objects.filter(by_user | Q(email__in=person.emails))


def _subscriptions(person: Person) -> list[dict[str, Any]]:
    return [
        {
            "league": s.league.name,
            "email": s.email,
            "active": s.active,
            "created_at": iso(s.created_at),
        }
        for s in _subscriptions_of(person).select_related("league").order_by("id")
    ]


def _subscriptions_erase(erasure: Erasure) -> None:
    _subscriptions_of(erasure.person).delete()


def _invitations(person: Person) -> list[dict[str, Any]]:
    return [
        {
            "team": i.team.name if i.team else "",
            "name": i.name,
            "email": i.email,
            "created_at": iso(i.created_at),
            "sent_at": iso(i.sent_at),
            "accepted_at": iso(i.accepted_at),
        }
        for i in Invitation.objects.filter(email__in=person.emails, kind=Invitation.Kind.ROSTER)
        .select_related("team")
        .order_by("id")
    ]


def _invitations_erase(erasure: Erasure) -> None:
    """Invitations not yet accepted go; accepted ones keep the team and the new name."""
    emails = erasure.person.emails
    invitations = Invitation.objects.filter(email__in=emails, kind=Invitation.Kind.ROSTER)
    invitations.filter(accepted_at__isnull=True).delete()
    invitations.update(name=erasure.new_name, email="")


def _emails_sent(person: Person) -> list[dict[str, Any]]:
    return [
        {
            "kind": n.kind,
            "recipient": n.recipient,
            "fixture_id": n.fixture_id,
            "sent_at": iso(n.sent_at),
        }
        for n in SentNotification.objects.filter(recipient__in=person.emails).order_by("id")
    ]


def _emails_sent_erase(erasure: Erasure) -> None:
    SentNotification.objects.filter(recipient__in=erasure.person.emails).delete()


# ------------------------------------------------------------------------- honours


def _honours(person: Person) -> list[dict[str, Any]]:
    """The roll of honour's lines naming the player (an individual or pairs event, or an
    award); a team's honours are the team's."""
    if person.player is None:
        return []
    return [
        {
            "league": h.league.name,
            "season": h.season_name,
            "title": h.title,
            "kind": h.kind,
            "position": h.position,
            "name": h.name,
            "detail": h.detail,
            "recorded_at": iso(h.recorded_at),
        }
        for h in Honour.objects.filter(players=person.player)
        .select_related("league")
        .order_by("recorded_at", "id")
    ]


def _honours_erase(erasure: Erasure) -> None:
    """The name kept as it was won becomes the new name ("Ann & Former player 3"), whether
    it was kept in full or as the initials they asked to be shown by."""
    rows = Honour.objects.filter(players=erasure.player).order_by("pk")
    others = {
        label
        for p in Player.objects.filter(honours__in=rows).exclude(pk=erasure.player.pk)
        for label in (" ".join(p.name.split()), p.public_name)
    }
    labels = dict(erasure.labels)
    for old in erasure.labels:
        initials = initials_of(old.split(" #")[0])
        if initials not in others:  # a partner shown by the same initials keeps them
            labels.setdefault(initials, erasure.new_name)
    rewrite_rows(rows.select_for_update(), ["name"], rewriter(labels, others))


# ------------------------------------------------------------------ calendar feeds


def _calendar_feeds(person: Person) -> list[dict[str, Any]]:
    """Every calendar address handed out to the player: the live one (with its token,
    the key to the calendar) and the revoked ones."""
    if person.player is None:
        return []
    return [
        {
            "token": f.token,
            "created_at": iso(f.created_at),
            "revoked_at": iso(f.revoked_at),
        }
        for f in CalendarFeed.objects.filter(player=person.player).order_by("created_at", "id")
    ]


def _calendar_feeds_erase(erasure: Erasure) -> None:
    """An erased person's calendar address stops working (revoked, as they would
    themselves)."""
    CalendarFeed.objects.filter(player=erasure.player, revoked_at__isnull=True).update(
        revoked_at=erasure.now
    )


# ------------------------------------------------------------------- availability


def _availability(person: Person) -> list[dict[str, Any]]:
    """The player's answers when their captain asked who plays."""
    if person.player is None:
        return []
    return [
        {
            "fixture": str(a.fixture),
            "date": a.fixture.date.isoformat() if a.fixture.date else None,
            "team": a.team.name,
            "answer": a.answer,
            "note": a.note,
            "via": a.via,
            "answered_at": iso(a.answered_at),
        }
        for a in Availability.objects.filter(player=person.player)
        .select_related("fixture__home", "fixture__away", "team")
        .order_by("answered_at", "id")
    ]


def _availability_erase(erasure: Erasure) -> None:
    """Answers are the person's, not the league's record: they go."""
    Availability.objects.filter(player=erasure.player).delete()


def _away_dates(person: Person) -> list[dict[str, Any]]:
    if person.player is None:
        return []
    return [
        {
            "season": a.season.name,
            "league": a.season.league.name,
            "start": a.start.isoformat(),
            "end": a.end.isoformat(),
            "note": a.note,
            "created_at": iso(a.created_at),
        }
        for a in AwayDates.objects.filter(player=person.player)
        .select_related("season__league")
        .order_by("start", "id")
    ]


def _away_dates_erase(erasure: Erasure) -> None:
    AwayDates.objects.filter(player=erasure.player).delete()


# ---------------------------------------------------------------- registration rules


def _eligibility(person: Person) -> dict[str, Any]:
    player = person.player
    if player is None:
        return {}
    return {
        "transfers": [
            {
                "from_team": t.from_team.name,
                "to_team": t.to_team.name,
                "status": t.status,
                "rule": t.rule,
                "reason": t.reason,
                "at": iso(t.created_at),
            }
            for t in Transfer.objects.filter(player=player).select_related("from_team", "to_team")
        ],
        "appearances_up": [
            {"team": up.team.name, "fixture": str(up.fixture), "at": iso(up.at)}
            for up in PlayUp.objects.filter(player=player).select_related(
                "team", "fixture__home", "fixture__away"
            )
        ],
        "log": [
            {"action": e.action, "rule": e.rule, "message": e.message, "at": iso(e.at)}
            for e in EligibilityLog.objects.filter(player=player)
        ],
    }


def _eligibility_erase(erasure: Erasure) -> None:
    """Transfers, appearances up and the log stay (rule 8 and the caps count them); the
    name in their text becomes the new one."""
    rewrite = rewriter(erasure.labels)
    player = erasure.player
    rewrite_rows(
        EligibilityLog.objects.select_for_update().filter(player=player),
        ["message", "note"],
        rewrite,
    )
    rewrite_rows(
        Transfer.objects.select_for_update().filter(player=player),
        ["rule_message", "reason"],
        rewrite,
    )


def _directory(person: Person) -> dict[str, Any] | None:
    """Their "Join a team" / "Looking for a team" posts and the messages they sent."""
    if person.user is None:
        return None
    posts = [
        {
            "league": p.league.name,
            "kind": p.kind,
            "team": p.team.name if p.team else "",
            "title": p.title,
            "body": p.body,
            "status": p.status,
            "refusal_reason": p.refusal_reason,
            "created_at": iso(p.created_at),
            "expires_at": iso(p.expires_at),
        }
        for p in DirectoryPost.objects.filter(author=person.user)
        .select_related("league", "team")
        .order_by("id")
    ]
    sent = [
        {"post": m.conversation.post.title, "body": m.body, "created_at": iso(m.created_at)}
        for m in PostMessage.objects.filter(sender=person.user)
        .select_related("conversation__post")
        .order_by("id")
    ]
    return {"posts": posts, "messages_sent": sent}


def _directory_erase(erasure: Erasure) -> None:
    """Their posts go (with every answer to them), and so do the conversations they
    started by answering someone else's."""
    user = erasure.person.user
    if user is None:
        return
    DirectoryPost.objects.filter(author=user).delete()
    PostConversation.objects.filter(answerer=user).delete()


SECTIONS: tuple[Section, ...] = (
    Section(
        "player",
        (
            "leagues.Player.name",
            "leagues.Player.email",
            "leagues.Player.user",
            "leagues.Player.date_of_birth",
            "leagues.Player.plays_ladies",
        ),
        export=_player,
        erase=_player_erase,
        description="the player record: name, email, whether named publicly, the date of "
        "birth and ladies' declaration age and ladies' categories check (wiped)",
    ),
    Section(
        "registrations",
        ("leagues.Registration.player",),
        export=_registrations,
        description="the teams played for, season by season (kept)",
    ),
    Section(
        "teams_captained",
        ("leagues.Team.captain", "leagues.Team.vice_captain"),
        export=_teams_captained,
        description="teams captained (kept: the account is scrubbed)",
    ),
    Section(
        "league_roles",
        ("leagues.LeagueRole.user",),
        export=_league_roles,
        erase=_league_roles_erase,
        description="officer roles (removed)",
    ),
    Section(
        "organisation_roles",
        ("leagues.OrganisationRole.user",),
        export=_organisation_roles,
        erase=_organisation_roles_erase,
        description="officer roles in counties and associations (removed)",
    ),
    Section(
        "officer_invitations",
        ("leagues.Invitation.email",),
        export=_officer_invitations,
        erase=_officer_invitations_erase,
        description="invitations to become an officer (removed, or kept without the address)",
    ),
    Section(
        "subscriptions",
        ("leagues.Subscription.email", "leagues.Subscription.user"),
        export=_subscriptions,
        erase=_subscriptions_erase,
        description="table emails (removed)",
    ),
    Section(
        "invitations",
        ("leagues.Invitation.name", "leagues.Invitation.email"),
        export=_invitations,
        erase=_invitations_erase,
        description="invitations to a team (removed, or renamed once accepted)",
    ),
    Section(
        "emails_sent",
        ("leagues.SentNotification.recipient",),
        export=_emails_sent,
        erase=_emails_sent_erase,
        description="the sent-mail ledger (removed)",
    ),
    Section(
        "transfers_and_eligibility",
        ("leagues.Transfer.player", "leagues.PlayUp.player", "leagues.EligibilityLog.player"),
        export=_eligibility,
        erase=_eligibility_erase,
        description="transfers, appearances up and the registration rules' log (kept, renamed)",
    ),
    Section(
        "honours",
        ("leagues.Honour.name", "leagues.Honour.players"),
        export=_honours,
        erase=_honours_erase,
        description="the roll of honour (renamed)",
    ),
    Section(
        "calendar_feeds",
        ("leagues.CalendarFeed.player", "leagues.CalendarFeed.token"),
        export=_calendar_feeds,
        erase=_calendar_feeds_erase,
        description="the private calendar addresses (revoked)",
    ),
    Section(
        "availability",
        ("leagues.Availability.player",),
        export=_availability,
        erase=_availability_erase,
        description="answers to a captain's 'who is playing?' (removed)",
    ),
    Section(
        "away_dates",
        ("leagues.AwayDates.player",),
        export=_away_dates,
        erase=_away_dates_erase,
        description="dates away in a season (removed)",
    ),
    Section(
        "directory",
        (
            "leagues.DirectoryPost.author",
            "leagues.DirectoryPost.title",
            "leagues.PostConversation.answerer",
            "leagues.PostMessage.sender",
        ),
        export=_directory,
        erase=_directory_erase,
        description="posts in Where to play and the messages sent about them (removed)",
    ),
)

#: Fields that look personal by the rule and are not, with why.
NOT_PERSONAL: dict[str, str] = {
    "leagues.Notice.title": "a notice's title: an announcement to everyone, by an officer",
    "leagues.Notice.created_by": "who posted a notice (an account, scrubbed on theirs)",
    "leagues.League.name": "a league's name",
    "leagues.Organisation.name": "a county's or association's name",
    "leagues.Organisation.ranked_games": "the game ids an organisation ranks",
    "leagues.Season.name": "a season's name",
    "leagues.Season.game_options": "the game's options (numbers and switches)",
    "leagues.Season.tie_breakers": "the order of the table's tie-breakers",
    "leagues.Season.match_format": "a match format: frame kinds and counts",
    "leagues.Division.name": "a division's name",
    "leagues.Division.match_format": "a match format: frame kinds and counts",
    "leagues.Venue.name": "a pub's name",
    "leagues.Venue.address": "a pub's address, not a person's",
    "leagues.DirectoryPost.moderated_by": "the secretary who published or refused a post (an account)",
    "leagues.Team.name": "a team's name",
    "leagues.PersonErasure.player": "the erasure's log: which record, never the old name",
    "leagues.PersonErasure.by": "the officer who erased (an account, scrubbed on theirs)",
    "leagues.Invitation.invited_by": "the captain or officer who invited (an account, scrubbed on theirs)",
    "leagues.PointDeduction.by": "the officer who deducted (an account)",
    "leagues.AvailabilityRequest.asked_by": "the captain or officer who asked the squad (an account, scrubbed on theirs)",
    "leagues.Transfer.requested_by": "the captain who asked for a transfer (an account)",
    "leagues.Transfer.decided_by": "the officer who decided a transfer (an account)",
    "leagues.EligibilityLog.actor": "who took a step of the registration rules (an account)",
    "leagues.Publication.created_by": "the officer who published (an account)",
    "leagues.ImportJob.created_by": "the officer who imported (an account)",
    "leagues.ImportJob.filename": "the name of the file the secretary uploaded",
    "leagues.ImportJob.table": "an import's upload, kept only while its job may run: emptied when it ends",
    "leagues.ImportJob.mapping": "which field each column of an upload gives",
    "leagues.ImportJob.result": "an import's counts, and the problems that stopped it (as its preview showed)",
    "leagues.TableSnapshot.rows": "a published table: teams and their figures",
    "leagues.TableSnapshot.notes": "a published table's notes on teams",
    "leagues.TableSnapshot.scheme": "the points scheme",
    "leagues.Honour.season_name": "a season's name",
    "leagues.Honour.title": "what was won ('Premier Division', 'Cup')",
}
