"""Persistent buttons: each custom id carries what it acts on (``challenge:accept:17``).

They are :class:`discord.ui.DynamicItem` classes, registered once at start-up, so a button on a
message posted before a restart still works: discord.py rebuilds the item from the custom id and
the service decides from the database whether the action still makes sense (a stale button gets
a private "no longer open" answer).  The ids are a contract with every message already posted:
they never change.

Who answers a press is handed in, not looked up: a :class:`Buttons` kit makes the classes, bound
to itself, and the commands that answer presses are given to it when the client registers the
classes (:meth:`Buttons.answered_by`).  The kit exists before those commands because they post
its buttons, and a finished game's Rematch button leads back to a challenge: the recursion of
the game itself, so one side has to be plugged in after the other.  discord.py keys a dynamic
item by its template and re-registers the class of every item it sends, so the buttons posted
and the classes registered must be the same bound classes; the kit makes both.
"""

from __future__ import annotations

import re
import types
from enum import StrEnum
from typing import Any, ClassVar, Protocol, TypeVar, cast

import discord

from ..i18n import Text, _p, render

ID = r"(?P<id>[0-9]{1,19})"


class ChallengeAnswer(StrEnum):
    """The buttons under an open challenge, in the order they are shown."""

    ACCEPT = "accept"
    DECLINE = "decline"
    CANCEL = "cancel"


class Answer(StrEnum):
    """The opponent's answer to a draw offer or a takeback request."""

    ACCEPT = "accept"
    DECLINE = "decline"


class ChallengeAnswers(Protocol):
    """What the challenge and rematch buttons call."""

    async def answer_challenge(
        self, interaction: discord.Interaction, answer: ChallengeAnswer, challenge_id: int
    ) -> None: ...

    async def answer_rematch(self, interaction: discord.Interaction, game_id: int) -> None: ...


class OfferAnswers(Protocol):
    """What the draw, takeback and resignation buttons call."""

    async def answer_draw(
        self, interaction: discord.Interaction, accept: bool, game_id: int
    ) -> None: ...

    async def answer_takeback(
        self, interaction: discord.Interaction, accept: bool, game_id: int, ply: int
    ) -> None: ...

    async def confirm_resign(self, interaction: discord.Interaction, game_id: int) -> None: ...


class BoardAnswers(Protocol):
    """What the buttons under a board message call (see :mod:`bot.ui.picker`)."""

    async def open_picker(self, interaction: discord.Interaction, game_id: int) -> None: ...

    async def show_moves(self, interaction: discord.Interaction, game_id: int) -> None: ...

    async def abort_game(self, interaction: discord.Interaction, game_id: int) -> None: ...


class BoardAction(StrEnum):
    """The buttons under a running game's board message, in the order they are shown."""

    MOVE = "move"
    MOVES = "moves"
    ABORT = "abort"


Persistent = discord.ui.DynamicItem[discord.ui.Button[Any]]


def _button(
    custom_id: str, label: Text, style: discord.ButtonStyle, code: str
) -> discord.ui.Button[Any]:
    """A button labelled in the language ``code`` (the label is only shown: a press is matched
    by its custom id, so a button rebuilt from one needs no language)."""
    return discord.ui.Button(label=render(label, code), style=style, custom_id=custom_id)


class ChallengeButton(Persistent, template=rf"challenge:(?P<action>accept|decline|cancel):{ID}"):
    """Accept or Decline (the challenged user; Accept anyone but the challenger, an open
    challenge), Cancel (the challenger)."""

    kit: ClassVar[Buttons]  # set by bound

    LOOKS: ClassVar[dict[ChallengeAnswer, tuple[Text, discord.ButtonStyle]]] = {
        ChallengeAnswer.ACCEPT: (_p("button", "Accept"), discord.ButtonStyle.success),
        ChallengeAnswer.DECLINE: (_p("button", "Decline"), discord.ButtonStyle.danger),
        ChallengeAnswer.CANCEL: (_p("button", "Cancel"), discord.ButtonStyle.secondary),
    }

    def __init__(self, answer: ChallengeAnswer, challenge_id: int, code: str = "en") -> None:
        super().__init__(_button(f"challenge:{answer}:{challenge_id}", *self.LOOKS[answer], code))
        self.answer = answer
        self.challenge_id = challenge_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ChallengeButton:
        return cls(ChallengeAnswer(match["action"]), int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await self.kit.challenges.answer_challenge(interaction, self.answer, self.challenge_id)


class DrawButton(Persistent, template=rf"draw:(?P<action>accept|decline):{ID}"):
    """The opponent's answer to a draw offer in game ``id``."""

    kit: ClassVar[Buttons]  # set by bound

    LOOKS: ClassVar[dict[Answer, tuple[Text, discord.ButtonStyle]]] = {
        Answer.ACCEPT: (_p("button", "Accept draw"), discord.ButtonStyle.success),
        Answer.DECLINE: (_p("button", "Decline draw"), discord.ButtonStyle.danger),
    }

    def __init__(self, answer: Answer, game_id: int, code: str = "en") -> None:
        super().__init__(_button(f"draw:{answer}:{game_id}", *self.LOOKS[answer], code))
        self.answer = answer
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DrawButton:
        return cls(Answer(match["action"]), int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        accept = self.answer is Answer.ACCEPT
        await self.kit.offers.answer_draw(interaction, accept, self.game_id)


class TakebackButton(
    Persistent,
    template=rf"takeback:(?P<action>accept|decline):{ID}:(?P<ply>[0-9]{{1,6}})",
):
    """The opponent's answer to the takeback request made in game ``id`` at ``ply``: the ply
    ties the buttons to that one request, so an old message cannot answer a later one."""

    kit: ClassVar[Buttons]  # set by bound

    LOOKS: ClassVar[dict[Answer, tuple[Text, discord.ButtonStyle]]] = {
        Answer.ACCEPT: (_p("button", "Allow takeback"), discord.ButtonStyle.success),
        Answer.DECLINE: (_p("button", "Refuse takeback"), discord.ButtonStyle.danger),
    }

    def __init__(self, answer: Answer, game_id: int, ply: int, code: str = "en") -> None:
        super().__init__(_button(f"takeback:{answer}:{game_id}:{ply}", *self.LOOKS[answer], code))
        self.answer = answer
        self.game_id = game_id
        self.ply = ply

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TakebackButton:
        return cls(Answer(match["action"]), int(match["id"]), int(match["ply"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        accept = self.answer is Answer.ACCEPT
        await self.kit.offers.answer_takeback(interaction, accept, self.game_id, self.ply)


class ResignButton(Persistent, template=rf"resign:{ID}"):
    """The confirmation of ``/resign`` (shown only to the player who asked)."""

    kit: ClassVar[Buttons]  # set by bound

    def __init__(self, game_id: int, code: str = "en") -> None:
        label = _p("button", "Yes, resign")
        super().__init__(_button(f"resign:{game_id}", label, discord.ButtonStyle.danger, code))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ResignButton:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await self.kit.offers.confirm_resign(interaction, self.game_id)


class RematchButton(Persistent, template=rf"rematch:{ID}"):
    """Under a finished game: either player asks for a return game with colours swapped."""

    kit: ClassVar[Buttons]  # set by bound

    def __init__(self, game_id: int, code: str = "en") -> None:
        label = _p("button", "Rematch")
        super().__init__(_button(f"rematch:{game_id}", label, discord.ButtonStyle.primary, code))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RematchButton:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await self.kit.challenges.answer_rematch(interaction, self.game_id)


class BoardButton(Persistent, template=rf"board:(?P<action>move|moves|abort):{ID}"):
    """Under a board message: Move opens the private picker for the player to move, Moves
    shows the game so far privately, Abort (until both players have moved) ends it unrated."""

    kit: ClassVar[Buttons]  # set by bound

    LOOKS: ClassVar[dict[BoardAction, tuple[Text, discord.ButtonStyle]]] = {
        BoardAction.MOVE: (_p("button", "Move"), discord.ButtonStyle.primary),
        BoardAction.MOVES: (_p("button", "Moves"), discord.ButtonStyle.secondary),
        BoardAction.ABORT: (_p("button", "Abort"), discord.ButtonStyle.danger),
    }

    def __init__(self, action: BoardAction, game_id: int, code: str = "en") -> None:
        super().__init__(_button(f"board:{action}:{game_id}", *self.LOOKS[action], code))
        self.action = action
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> BoardButton:
        return cls(BoardAction(match["action"]), int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        answers = self.kit.board
        if self.action is BoardAction.MOVE:
            await answers.open_picker(interaction, self.game_id)
        elif self.action is BoardAction.MOVES:
            await answers.show_moves(interaction, self.game_id)
        else:
            await answers.abort_game(interaction, self.game_id)


B = TypeVar("B", bound=discord.ui.DynamicItem[Any])


def bound(base: type[B], kit: object) -> type[B]:
    """A subclass of ``base`` whose presses go to ``kit``'s answers (same template, so it
    answers the same ids).  discord.py keys a dynamic item by its template and re-registers the
    class of every item it sends, so the items posted and the classes registered must be the
    same bound classes."""
    bound = types.new_class(
        base.__name__,
        (base,),
        {"template": base.__discord_ui_compiled_template__},
        lambda namespace: namespace.update(kit=kit, __module__=base.__module__),
    )
    return cast(type[B], bound)


def view_of(*items: discord.ui.Item[Any]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


class Buttons:
    """The persistent buttons of one client: views to post, and the classes to register."""

    def __init__(self) -> None:
        self._challenge = bound(ChallengeButton, self)
        self._draw = bound(DrawButton, self)
        self._takeback = bound(TakebackButton, self)
        self._resign = bound(ResignButton, self)
        self._rematch = bound(RematchButton, self)
        self._board = bound(BoardButton, self)
        self._challenges: ChallengeAnswers | None = None
        self._offers: OfferAnswers | None = None
        self._board_answers: BoardAnswers | None = None

    def answered_by(
        self, *, challenges: ChallengeAnswers, offers: OfferAnswers, board: BoardAnswers
    ) -> tuple[type[Persistent], ...]:
        """Hand presses to these answers; the classes for ``Client.add_dynamic_items``."""
        self._challenges = challenges
        self._offers = offers
        self._board_answers = board
        return (
            self._challenge,
            self._draw,
            self._takeback,
            self._resign,
            self._rematch,
            self._board,
        )

    @property
    def board(self) -> BoardAnswers:
        if self._board_answers is None:
            raise RuntimeError("a button was pressed before its answers were registered")
        return self._board_answers

    @property
    def challenges(self) -> ChallengeAnswers:
        if self._challenges is None:
            raise RuntimeError("a button was pressed before its answers were registered")
        return self._challenges

    @property
    def offers(self) -> OfferAnswers:
        if self._offers is None:
            raise RuntimeError("a button was pressed before its answers were registered")
        return self._offers

    # Each view is labelled in the language ``code`` of the message it goes on.

    def challenge(
        self, challenge_id: int, code: str = "en", *, open_to_all: bool = False
    ) -> discord.ui.View:
        """Accept, Decline and Cancel; an open challenge (``open_to_all``) has nobody to
        decline it: Accept and Cancel."""
        answers = [a for a in ChallengeAnswer if not (open_to_all and a is ChallengeAnswer.DECLINE)]
        return view_of(*(self._challenge(answer, challenge_id, code) for answer in answers))

    def draw(self, game_id: int, code: str = "en") -> discord.ui.View:
        return view_of(*(self._draw(answer, game_id, code) for answer in Answer))

    def takeback(self, game_id: int, ply: int, code: str = "en") -> discord.ui.View:
        return view_of(*(self._takeback(answer, game_id, ply, code) for answer in Answer))

    def resign(self, game_id: int, code: str = "en") -> discord.ui.View:
        return view_of(self._resign(game_id, code))

    def game(
        self, game_id: int, *, running: bool, abortable: bool, rematch: bool, code: str = "en"
    ) -> discord.ui.View:
        """The buttons under a board message: Move and Moves while the game runs (and Abort
        while both players have not yet moved), Moves and Rematch once it is over."""
        items: list[discord.ui.Item[Any]] = []
        if running:
            items.append(self._board(BoardAction.MOVE, game_id, code))
        items.append(self._board(BoardAction.MOVES, game_id, code))
        if running and abortable:
            items.append(self._board(BoardAction.ABORT, game_id, code))
        if rematch:
            items.append(self._rematch(game_id, code))
        return view_of(*items)
