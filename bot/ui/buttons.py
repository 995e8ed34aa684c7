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
from collections.abc import Sequence
from enum import StrEnum
from typing import Any, ClassVar, Protocol, TypeVar, cast

import discord

from ..i18n import Text, _, _p, render
from .move_options import BoardMenu

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
    """What the buttons and the move menu under a board message call (see
    :mod:`bot.ui.picker`)."""

    async def open_picker(self, interaction: discord.Interaction, game_id: int) -> None: ...

    async def board_picked(
        self, interaction: discord.Interaction, game_id: int, ply: int, value: str
    ) -> None: ...

    async def show_moves(self, interaction: discord.Interaction, game_id: int) -> None: ...

    async def abort_game(self, interaction: discord.Interaction, game_id: int) -> None: ...


class AnalysisAnswers(Protocol):
    """What a finished game's Analyse button calls (see :mod:`bot.ui.analysis`)."""

    async def analyse_game(self, interaction: discord.Interaction, game_id: int) -> None: ...


class HintAnswers(Protocol):
    """What the board's Hint button calls (see :mod:`bot.ui.hints`)."""

    async def give_hint(self, interaction: discord.Interaction, game_id: int) -> None: ...


class ActionAnswers(Protocol):
    """What the board's More button and its private panel call (see
    :mod:`bot.ui.board_actions`)."""

    async def more(self, interaction: discord.Interaction, game_id: int) -> None: ...

    async def act(
        self, interaction: discord.Interaction, action: PlayerAction, game_id: int
    ) -> None: ...


class BoardAction(StrEnum):
    """The buttons under a running game's board message, in the order they are shown (the
    ids are a contract with posted boards: ``move`` is the Arrows button, which opens the
    private picker, ``moves`` the move list)."""

    MOVE = "move"
    MOVES = "moves"
    MORE = "more"
    ABORT = "abort"
    HINT = "hint"


class PlayerAction(StrEnum):
    """What a player asks for from the board's More panel (their answer to an offer uses the
    offer's own buttons)."""

    DRAW = "draw"
    TAKEBACK = "takeback"
    RESIGN = "resign"


Persistent = discord.ui.DynamicItem[discord.ui.Button[Any]]


def _button(
    custom_id: str, label: Text, style: discord.ButtonStyle, code: str, emoji: str | None = None
) -> discord.ui.Button[Any]:
    """A button labelled in the language ``code`` (the label is only shown: a press is matched
    by its custom id, so a button rebuilt from one needs no language)."""
    return discord.ui.Button(
        label=render(label, code), style=style, custom_id=custom_id, emoji=emoji
    )


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


class AnalyseButton(Persistent, template=rf"analyse:{ID}"):
    """The engine's analysis of finished game ``id``, for whoever taps it."""

    kit: ClassVar[Buttons]  # set by bound

    def __init__(self, game_id: int, code: str = "en") -> None:
        label = _p("button", "Analyse")
        super().__init__(_button(f"analyse:{game_id}", label, discord.ButtonStyle.secondary, code))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> AnalyseButton:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await self.kit.analyses.analyse_game(interaction, self.game_id)


class BoardButton(Persistent, template=rf"board:(?P<action>move|moves|more|abort|hint):{ID}"):
    """Under a board message: Arrows opens the private picker (the player's side of the board,
    their moves drawn as arrows), Move list shows the game so far privately, More the
    player's actions (draw, takeback, resign), Abort (until both players have moved) ends it
    unrated, Hint (games against the computer) shows the computer's move privately."""

    kit: ClassVar[Buttons]  # set by bound

    LOOKS: ClassVar[dict[BoardAction, tuple[Text, discord.ButtonStyle, str]]] = {
        BoardAction.MOVE: (
            _p("button", "Arrows"),
            discord.ButtonStyle.secondary,
            "\N{BOW AND ARROW}",
        ),
        BoardAction.MOVES: (_p("button", "Move list"), discord.ButtonStyle.secondary, "\N{SCROLL}"),
        BoardAction.MORE: (_p("button", "More"), discord.ButtonStyle.secondary, "\N{GEAR}"),
        BoardAction.ABORT: (_p("button", "Abort"), discord.ButtonStyle.danger, "\N{WASTEBASKET}"),
        BoardAction.HINT: (
            _p("button", "Hint"),
            discord.ButtonStyle.secondary,
            "\N{ELECTRIC LIGHT BULB}",
        ),
    }

    def __init__(self, action: BoardAction, game_id: int, code: str = "en") -> None:
        label, style, emoji = self.LOOKS[action]
        super().__init__(_button(f"board:{action}:{game_id}", label, style, code, emoji))
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
        elif self.action is BoardAction.MORE:
            await self.kit.actions.more(interaction, self.game_id)
        elif self.action is BoardAction.HINT:
            await self.kit.hints.give_hint(interaction, self.game_id)
        else:
            await answers.abort_game(interaction, self.game_id)


class BoardSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=rf"play:{ID}:(?P<ply>[0-9]{{1,6}})",
):
    """The move menu on a board message: the legal moves of the position at ``ply`` (or, when
    they do not fit one menu, the pieces that can move).  Only the player to move can use it,
    and only while the game is still at ``ply``: the service refuses a stale pick."""

    kit: ClassVar[Buttons]  # set by bound

    def __init__(
        self,
        game_id: int,
        ply: int,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"play:{game_id}:{ply}",
            options=options or [],
            placeholder=placeholder,
            min_values=1,
            max_values=1,
        )
        super().__init__(select)
        self.game_id, self.ply = game_id, ply

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> BoardSelect:
        return cls(int(match["id"]), int(match["ply"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await self.kit.board.board_picked(
            interaction, self.game_id, self.ply, chosen_value(interaction)
        )


def chosen_value(interaction: discord.Interaction) -> str:
    """The one value picked in a select menu ("" when the payload has none, or several)."""
    data: Any = interaction.data or {}
    values = data.get("values") if isinstance(data, dict) else None
    value = values[0] if isinstance(values, list) and len(values) == 1 else ""
    return value if isinstance(value, str) else ""


class ActionButton(Persistent, template=rf"act:(?P<action>draw|takeback|resign):{ID}"):
    """A button of the board's private More panel: offer a draw, ask for a takeback, resign
    (which asks for a confirmation first)."""

    kit: ClassVar[Buttons]  # set by bound

    LOOKS: ClassVar[dict[PlayerAction, tuple[Text, discord.ButtonStyle]]] = {
        PlayerAction.DRAW: (_p("button", "Offer draw"), discord.ButtonStyle.primary),
        PlayerAction.TAKEBACK: (_p("button", "Take back"), discord.ButtonStyle.secondary),
        PlayerAction.RESIGN: (_p("button", "Resign"), discord.ButtonStyle.danger),
    }

    def __init__(self, action: PlayerAction, game_id: int, code: str = "en") -> None:
        super().__init__(_button(f"act:{action}:{game_id}", *self.LOOKS[action], code))
        self.action = action
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ActionButton:
        return cls(PlayerAction(match["action"]), int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await self.kit.actions.act(interaction, self.action, self.game_id)


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
        self._menu = bound(BoardSelect, self)
        self._act = bound(ActionButton, self)
        self._analyse = bound(AnalyseButton, self)
        self._challenges: ChallengeAnswers | None = None
        self._offers: OfferAnswers | None = None
        self._board_answers: BoardAnswers | None = None
        self._actions: ActionAnswers | None = None
        self._analyses: AnalysisAnswers | None = None
        self._hints: HintAnswers | None = None

    def answered_by(
        self,
        *,
        challenges: ChallengeAnswers,
        offers: OfferAnswers,
        board: BoardAnswers,
        actions: ActionAnswers,
        analyses: AnalysisAnswers,
        hints: HintAnswers,
    ) -> tuple[type[discord.ui.DynamicItem[Any]], ...]:
        """Hand presses to these answers; the classes for ``Client.add_dynamic_items``."""
        self._analyses = analyses
        self._challenges = challenges
        self._offers = offers
        self._board_answers = board
        self._actions = actions
        self._hints = hints
        return (
            self._challenge,
            self._draw,
            self._takeback,
            self._resign,
            self._rematch,
            self._board,
            self._menu,
            self._act,
            self._analyse,
        )

    @property
    def board(self) -> BoardAnswers:
        if self._board_answers is None:
            raise RuntimeError("a button was pressed before its answers were registered")
        return self._board_answers

    @property
    def actions(self) -> ActionAnswers:
        if self._actions is None:
            raise RuntimeError("a button was pressed before its answers were registered")
        return self._actions

    @property
    def analyses(self) -> AnalysisAnswers:
        if self._analyses is None:
            raise RuntimeError("a button was pressed before its answers were registered")
        return self._analyses

    @property
    def hints(self) -> HintAnswers:
        if self._hints is None:
            raise RuntimeError("a button was pressed before its answers were registered")
        return self._hints

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
        return view_of(*self.draw_answers(game_id, code))

    def takeback(self, game_id: int, ply: int, code: str = "en") -> discord.ui.View:
        return view_of(*self.takeback_answers(game_id, ply, code))

    def resign(self, game_id: int, code: str = "en") -> discord.ui.View:
        return view_of(self._resign(game_id, code))

    def game(
        self,
        game_id: int,
        *,
        running: bool,
        abortable: bool,
        rematch: bool,
        code: str = "en",
        menu: BoardMenu | None = None,
        analyse: bool = False,
        hint: bool = False,
    ) -> discord.ui.View:
        """The components of a board message: while the game runs the move menu (``menu``,
        on a row of its own), then Arrows, Move list and More (and Abort while both players
        have not yet moved, and Hint in a game against the computer: five buttons at most, one
        row); Move list, Rematch and Analyse (a finished game with moves) once it is over."""
        items: list[discord.ui.Item[Any]] = []
        if running and menu is not None:
            placeholder = _("Play a move") if menu.moves else _("Pick a piece (or its one move)")
            options = [
                discord.SelectOption(
                    label=o.label, value=o.value, description=o.description or None
                )
                for o in menu.options
            ]
            items.append(self._menu(game_id, menu.ply, options, render(placeholder, code)))
        if running:
            items.append(self._board(BoardAction.MOVE, game_id, code))
        items.append(self._board(BoardAction.MOVES, game_id, code))
        if running:
            items.append(self._board(BoardAction.MORE, game_id, code))
        if running and abortable:
            items.append(self._board(BoardAction.ABORT, game_id, code))
        if running and hint:
            items.append(self._board(BoardAction.HINT, game_id, code))
        if rematch:
            items.append(self._rematch(game_id, code))
        if analyse:
            items.append(self._analyse(game_id, code))
        return view_of(*items)

    def action_buttons(
        self, game_id: int, actions: Sequence[PlayerAction], code: str = "en"
    ) -> list[discord.ui.Item[Any]]:
        """The More panel's own buttons for ``actions``, labelled in the language ``code``."""
        return [self._act(action, game_id, code) for action in actions]

    def draw_answers(self, game_id: int, code: str = "en") -> list[discord.ui.Item[Any]]:
        return [self._draw(answer, game_id, code) for answer in Answer]

    def takeback_answers(
        self, game_id: int, ply: int, code: str = "en"
    ) -> list[discord.ui.Item[Any]]:
        return [self._takeback(answer, game_id, ply, code) for answer in Answer]

    def abort(self, game_id: int, code: str = "en") -> discord.ui.Item[Any]:
        return self._board(BoardAction.ABORT, game_id, code)
