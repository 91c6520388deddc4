"""Seating: who plays, in what order, and whose turn it is (:class:`Seating`); how a game
is seated (:class:`Participants`); and a setup for given players (:func:`setup_for`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any, NamedTuple, Protocol, cast

from rules.vocabulary import Field, InvalidEvent

__all__ = ["SEATING_CHOICES", "Participants", "Seated", "Seating", "setup_for"]

#: The choice sets every game resolves from its seating (see :meth:`Game.choice_sets`).
SEATING_CHOICES: dict[str, str] = {
    "players": "the named players of the setup, in seating order (sides' members included)",
    "parties": "the parties scores belong to: the players, or the sides in play between sides",
    "sides": "the sides (empty in individual play)",
}

# -------------------------------------------------------------------------- seating


class Seating(NamedTuple):
    """Who plays, in what order, and whose turn it is: one immutable value, cheap to copy.

    ``parties`` are whoever scores belong to: the players in individual play, the sides in
    play between sides. ``members[i]`` are party i's players in the order they take its
    visits (in individual play, the player alone; ``None`` for an unnamed member).
    ``turn`` indexes the party at the table, ``partner[i]`` the member of party i who takes
    its current (for the party at the table) or next visit, ``visits[i]`` the visits
    (innings, turns) party i has begun. ``out[i]``: knocked out (passed over until
    revived). ``skips[i]``: turns party i will be passed over. ``playoff``: the parties
    (indices, rotation order) of a play-off among a subset; empty when everyone plays.
    ``round`` counts rounds (from 1): a new one begins when the rotation comes back round
    to a party whose first member is due. ``balls`` is the allotment of balls a turn (0:
    no allotment, the game ends visits itself) and ``balls_left`` what the seat at the
    table has still to play.

    The order between sides is the canonical one: sides play in the listed order, and a
    side's members take that side's visits in turn (Ann, Bob, Al, Bea for sides A = Ann,
    Al and B = Bob, Bea); a member may keep his side's visits (``advance(rotate=False)``).

    >>> s = Seating.of(("A", "B"), (("Ann", "Al"), ("Bob", "Bea")), sides=True)
    >>> order = []
    >>> for _ in range(5):
    ...     order.append(s.player)
    ...     s = s.advance()
    >>> order, s.round
    (['Ann', 'Bob', 'Al', 'Bea', 'Ann'], 2)
    >>> s = Seating.of(("Ann", "Bob", "Cat")).knock_out(1)
    >>> s.advance().at_table
    'Cat'
    """

    parties: tuple[str, ...]
    members: tuple[tuple[str | None, ...], ...]
    sides: bool = False
    turn: int = 0
    partner: tuple[int, ...] = ()
    visits: tuple[int, ...] = ()
    out: tuple[bool, ...] = ()
    skips: tuple[int, ...] = ()
    playoff: tuple[int, ...] = ()
    round: int = 1
    balls: int = 0
    balls_left: int = 0

    @classmethod
    def of(
        cls,
        parties: Sequence[str],
        members: Sequence[Sequence[str | None]] | None = None,
        *,
        sides: bool = False,
        first: int = 0,
        balls: int = 0,
    ) -> Seating:
        """A new seating: ``first`` (an index) begins the first visit.

        >>> s = Seating.of(("Ann", "Bob"), first=1)
        >>> s.at_table, s.visits, s.player
        ('Bob', (0, 1), 'Bob')
        """
        n = len(parties)
        mem = tuple((p,) for p in parties) if members is None else tuple(tuple(m) for m in members)
        return cls(
            tuple(parties),
            mem,
            sides,
            first,
            (0,) * n,
            tuple(1 if i == first else 0 for i in range(n)),
            (False,) * n,
            (0,) * n,
            (),
            1,
            balls,
            balls,
        )

    # -- reading ------------------------------------------------------------------

    @property
    def at_table(self) -> str:
        """The party at the table (a player, or a side)."""
        return self.parties[self.turn]

    @property
    def player(self) -> str | None:
        """The player at the table (a side's member due; None when unnamed)."""
        return self.members[self.turn][self.partner[self.turn]]

    def player_of(self, party: int) -> str | None:
        """The member of ``party`` who takes (or is taking) its visit."""
        return self.members[party][self.partner[party]]

    @property
    def players(self) -> tuple[str, ...]:
        """Every named player, in seating order (parties in order, members in order)."""
        return tuple(name for names in self.members for name in names if name is not None)

    def index_of(self, party: str) -> int:
        """The index of a party by name (ValueError if none)."""
        return self.parties.index(party)

    def party_of(self, player: str) -> int | None:
        """The index of the party ``player`` plays for, or None."""
        for i, names in enumerate(self.members):
            if player in names:
                return i
        return None

    def in_play(self, party: int) -> bool:
        """The party takes turns now: not knocked out, and in the play-off if one runs."""
        return not self.out[party] and (not self.playoff or party in self.playoff)

    @property
    def remaining(self) -> tuple[int, ...]:
        """The parties in play, in rotation order."""
        order = self.playoff or range(len(self.parties))
        return tuple(i for i in order if not self.out[i])

    def choice_sets(self) -> dict[str, list[Any]]:
        """The choice sets a seating resolves (:data:`SEATING_CHOICES`)."""
        return {
            "players": list(self.players),
            "parties": list(self.parties),
            "sides": list(self.parties) if self.sides else [],
        }

    # -- changing -----------------------------------------------------------------

    def advance(self, rotate: bool = True) -> Seating:
        """The next visit: the party at the table passes to the next party in play
        (passing over knocked-out parties and those with skips, whose count drops by one);
        with ``rotate`` its next visit goes to its next member. The new party's visit
        count goes up, and the allotment of balls is renewed. With nobody else in play, the
        same party plays on.

        >>> s = Seating.of(("A", "B", "C")).skip(1)
        >>> s = s.advance()
        >>> s.at_table, s.skips
        ('C', (0, 0, 0))
        """
        n = len(self.parties)
        turn = self.turn
        partner = self.partner
        if rotate:
            size = len(self.members[turn])
            if size > 1:
                partner = _set(partner, turn, (partner[turn] + 1) % size)
        skips = self.skips
        if not self.playoff and not any(skips) and True not in self.out:
            # the common visit: everyone in play, nobody to pass over
            nxt = turn + 1
            wrapped = nxt >= n
            if wrapped:
                nxt = 0
            rnd = self.round + 1 if wrapped and partner[nxt] == 0 else self.round
            return Seating(
                self.parties,
                self.members,
                self.sides,
                nxt,
                partner,
                _set(self.visits, nxt, self.visits[nxt] + 1),
                self.out,
                skips,
                self.playoff,
                rnd,
                self.balls,
                self.balls,
            )
        order = self.playoff or tuple(range(n))
        pos = order.index(turn) if turn in order else -1
        nxt = turn
        wrapped = False
        for _ in range(2 * len(order) + sum(skips) + 1):
            pos += 1
            if pos >= len(order):
                pos = 0
                wrapped = True
            cand = order[pos]
            if self.out[cand]:
                continue
            if skips[cand] > 0 and cand != turn:
                skips = _set(skips, cand, skips[cand] - 1)
                continue
            nxt = cand
            break
        rnd = self.round + 1 if (wrapped or nxt == turn) and partner[nxt] == 0 else self.round
        return Seating(
            self.parties,
            self.members,
            self.sides,
            nxt,
            partner,
            _set(self.visits, nxt, self.visits[nxt] + 1),
            self.out,
            skips,
            self.playoff,
            rnd,
            self.balls,
            self.balls,
        )

    def ball(self) -> Seating:
        """One ball of the allotment played: ``balls_left`` drops, and the visit passes
        when it is used up.

        >>> s = Seating.of(("A", "B"), balls=2).ball()
        >>> s.at_table, s.balls_left, s.ball().at_table
        ('A', 1, 'B')
        """
        if self.balls_left > 1:
            return self._replace(balls_left=self.balls_left - 1)
        return self.advance()

    def pass_to(self, party: int) -> Seating:
        """A new visit for ``party`` now (e.g. the player named to break), whatever the
        rotation says."""
        return self._replace(
            turn=party,
            visits=_set(self.visits, party, self.visits[party] + 1),
            balls_left=self.balls,
        )

    def knock_out(self, party: int) -> Seating:
        """``party`` is out: passed over until revived (the turn does not move)."""
        return self._replace(out=_set(self.out, party, True))

    def revive(self, party: int) -> Seating:
        """``party`` is back in the rotation, in its own seat."""
        return self._replace(out=_set(self.out, party, False))

    def skip(self, party: int, turns: int = 1) -> Seating:
        """``party`` will be passed over ``turns`` more times."""
        return self._replace(skips=_set(self.skips, party, self.skips[party] + turns))

    def start_playoff(self, parties: Sequence[int]) -> Seating:
        """Only ``parties`` play on (in seat order), beginning with the first of them: a
        new round."""
        order = tuple(sorted(parties))
        first = order[0]
        return self._replace(
            playoff=order,
            turn=first,
            visits=_set(self.visits, first, self.visits[first] + 1),
            round=self.round + 1,
            balls_left=self.balls,
        )

    def dump(self) -> list[Any]:
        """The seating as JSON (a list); :meth:`load` reads it back."""
        return [
            list(self.parties),
            [list(m) for m in self.members],
            self.sides,
            self.turn,
            list(self.partner),
            list(self.visits),
            list(self.out),
            list(self.skips),
            list(self.playoff),
            self.round,
            self.balls,
            self.balls_left,
        ]

    @classmethod
    def load(cls, data: Sequence[Any]) -> Seating:
        """A seating back from :meth:`dump`.

        >>> s = Seating.of(("A", "B"), ((None,), ("Bob",)), sides=True).advance()
        >>> Seating.load(s.dump()) == s
        True
        """
        p, m, sides, turn, partner, visits, out, skips, playoff, rnd, balls, left = data
        return cls(
            tuple(p),
            tuple(tuple(x) for x in m),
            sides,
            turn,
            tuple(partner),
            tuple(visits),
            tuple(out),
            tuple(skips),
            tuple(playoff),
            rnd,
            balls,
            left,
        )


def _set(t: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return (*t[:i], value, *t[i + 1 :])


@dataclass(frozen=True)
class Participants:
    """How a game is seated, declared once: ``describe()["participants"]``, the setup
    parsing of :meth:`seat` and :func:`setup_for` all read it.

    ``forms``: ``"players"`` (individuals in rotation: ``"players": [names]``, or a whole
    number n for P1..Pn when ``count``) and/or ``"sides"`` (``"sides": [names]`` with
    ``"players": {side: [names]}``); the first form is the game's ``kind``. ``min`` /
    ``max`` bound the number of parties (players, or sides; ``max`` None: no bound).
    ``per_side``: the allowed numbers of members a side (empty: any number from 1; a
    side's list may not be empty, null or left out: one unnamed member); ``equal_sides``: every side the
    same size. ``default_sides``: the sides when the setup names none (a sides-only game).
    """

    forms: tuple[str, ...] = ("players",)
    min: int = 2
    max: int | None = 2
    per_side: tuple[int, ...] = (1, 2)
    equal_sides: bool = False
    count: bool = False
    default_sides: tuple[str, ...] = ("home", "away")

    @property
    def kind(self) -> str:
        """``"players"`` or ``"sides"``: the game's first (usual) form."""
        return self.forms[0]

    def as_dict(self) -> dict[str, Any]:
        """The declaration as JSON (``describe()["participants"]``).

        >>> Participants(("sides",), per_side=(1, 2)).as_dict()["per_side"]
        [1, 2]
        """
        return {
            "kind": self.kind,
            "forms": list(self.forms),
            "min": self.min,
            "max": self.max,
            "per_side": list(self.per_side) if "sides" in self.forms else None,
            "equal_sides": self.equal_sides,
            "count": self.count,
        }

    def seat(self, values: Mapping[str, Any], first: str | None = None) -> Seating:
        """The seating a validated setup describes (``players`` / ``sides``); impossible
        combinations raise ``bad_setup`` (index -1). ``first`` names the party that
        begins (default: the first).

        >>> p = Participants(("players",), max=None, count=True)
        >>> p.seat({"players": 3}).parties
        ('P1', 'P2', 'P3')
        >>> p.seat({"players": ["Ann", "Ann"]})
        Traceback (most recent call last):
        ...
        rules.vocabulary.InvalidEvent: bad_setup: player names must be distinct (event -1)
        """
        raw_sides = values.get("sides")
        players = values.get("players")
        if "sides" in self.forms and (raw_sides is not None or self.kind == "sides"):
            sides = tuple(raw_sides if raw_sides is not None else self.default_sides)
            self._bounds(len(sides), "sides")
            _distinct(sides, "side")
            if players is not None and not isinstance(players, Mapping):
                raise InvalidEvent(
                    "bad_setup", "players must be an object (side -> names) with sides", -1
                )
            given = players or {}
            for side in given:
                if side not in sides:
                    raise InvalidEvent("bad_setup", f"players: {side!r} is not a side", -1)
            members = tuple(
                (None,) if given.get(side) is None else tuple(given[side]) for side in sides
            )
            for side, side_names in zip(sides, members, strict=True):
                if not side_names:
                    raise InvalidEvent("bad_setup", f"players: side {side!r} has nobody", -1)
                if self.per_side and len(side_names) not in self.per_side:
                    allowed = " or ".join(str(k) for k in self.per_side)
                    raise InvalidEvent(
                        "bad_setup",
                        f"players: {side} has {len(side_names)} players ({allowed})",
                        -1,
                    )
            if self.equal_sides and len({len(m) for m in members}) > 1:
                raise InvalidEvent("bad_setup", "every side needs the same number of players", -1)
            _distinct(tuple(n for m in members for n in m if n is not None), "player")
            seats = Seating.of(sides, members, sides=True)
        else:
            if players is None:
                players = ("P1", "P2")
            if isinstance(players, Mapping):
                raise InvalidEvent("bad_setup", "players must be a list of names", -1)
            if isinstance(players, int) and not isinstance(players, bool):
                if not self.count:
                    raise InvalidEvent("bad_setup", "players must be a list of names", -1)
                players = tuple(f"P{i}" for i in range(1, players + 1))
            names = tuple(cast(Sequence[str], players))
            self._bounds(len(names), "players")
            _distinct(names, "player")
            seats = Seating.of(names)
        if first is not None:
            if first not in seats.parties:
                raise InvalidEvent("bad_setup", f"{first!r} is not a party of the game", -1)
            seats = Seating.of(
                seats.parties, seats.members, sides=seats.sides, first=seats.index_of(first)
            )
        return seats

    def _bounds(self, n: int, what: str) -> None:
        if n < self.min or (self.max is not None and n > self.max):
            if self.max == self.min:
                need = f"exactly {self.min}"
            elif self.max is None:
                need = f"at least {self.min}"
            else:
                need = f"{self.min} to {self.max}"
            raise InvalidEvent("bad_setup", f"{need} {what} are needed, not {n}", -1)


def _distinct(names: Sequence[Any], what: str) -> None:
    for name in names:
        if not isinstance(name, str) or not name:
            raise InvalidEvent("bad_setup", f"a {what} needs a non-empty name", -1)
    if len(set(names)) != len(names):
        raise InvalidEvent("bad_setup", f"{what} names must be distinct", -1)


class Seated(Protocol):
    """What :func:`setup_for` needs of a game (every :class:`rules.core.Game` has it)."""

    @property
    def participants(self) -> Participants: ...

    @property
    def options(self) -> tuple[Field, ...]: ...

    def initial(self, setup: Mapping[str, Any] | None) -> Any: ...

    def draw_option(self, name: str, setup: Mapping[str, Any], rng: Random) -> Any: ...


def setup_for(
    game: Seated,
    participants: Sequence[str] | Mapping[str, Sequence[str | None]],
    options: Mapping[str, Any] | None = None,
    *,
    rng: Random | None = None,
) -> dict[str, Any]:
    """A valid setup for ``game`` from names, whatever the game: ``participants`` is a
    list of player names (a friendly game) or a mapping side -> its players' names (a
    league frame: ``{"home": [...], "away": [...]}``). ``options`` are merged in. With
    ``rng`` (a service passes ``secrets.SystemRandom()``), each option the game declares
    ``drawn_by_service`` that ``options`` leave out is drawn (``game.draw_option``);
    without it such an option must be given. The setup is checked with ``game.initial``
    (a :class:`RuleError` if it cannot be used).

    * a sides game given a mapping: ``sides`` and ``players`` as given (a side with no
      names gets one unnamed player; with no names at all, only ``sides``);
    * a players-only game given a mapping: the sides' players in order, home first (no
      names at all: the game's default players);
    * a sides game given a list: each player is a side of one.

    >>> from rules import get
    >>> setup_for(get("bar_billiards_4pin"), {"home": ["Ann"], "away": ["Bob", "Cy"]})
    {'sides': ['home', 'away'], 'players': {'home': ['Ann'], 'away': ['Bob', 'Cy']}}
    >>> setup_for(get("three_cushion_carom"), {"home": ["Ann"], "away": ["Bob"]})
    {'players': ['Ann', 'Bob']}
    >>> setup_for(get("bar_billiards_4pin"), ["Ann", "Bob"])["players"]
    {'Ann': ['Ann'], 'Bob': ['Bob']}
    """
    decl = game.participants
    setup: dict[str, Any] = {}
    if isinstance(participants, Mapping):
        names = {str(side): list(ps) for side, ps in participants.items()}
        named = any(n for ps in names.values() for n in ps)
        if "sides" in decl.forms:
            setup["sides"] = list(names)
            if named:
                setup["players"] = {side: ps or [None] for side, ps in names.items()}
        elif named:
            setup["players"] = [n for ps in names.values() for n in ps if n is not None]
    else:
        players = list(participants)
        if "players" in decl.forms:
            setup["players"] = players
        else:
            setup["sides"] = players
            setup["players"] = {name: [name] for name in players}
    setup.update(options or {})
    if rng is not None:
        for option in game.options:
            if option.drawn_by_service and option.name not in setup:
                setup[option.name] = game.draw_option(option.name, setup, rng)
    game.initial(setup)
    return setup
