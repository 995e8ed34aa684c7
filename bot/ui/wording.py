"""Words of the Discord layer put into the reader's language.

The service and the builders here say things as :class:`bot.i18n.Text`; which language a message
is written in is decided where it is sent (:mod:`bot.ui.languages`: a private answer in the
user's locale, a public message in the server's language, a direct message in the user's own).
These helpers render what may still be a plain string (``as_text`` takes both), and write a
refusal as the sentence the user reads.
"""

from __future__ import annotations

from ..errors import IllegalMoveError, NotFoundError, ServiceError
from ..i18n import SOURCE, Text, _, as_text, render
from ..results import ActionResult


def say(value: Text | str | None, code: str) -> str:
    """``value`` in the language ``code``; None is nothing."""
    if value is None:
        return ""
    return render(as_text(value), code)


def sentence(text: str) -> str:
    """``text`` as a sentence on its own: a capital first letter, and a full stop unless it ends
    with one already.  Done on the rendered words, so it holds in every language."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    if not text.endswith((".", "!", "?")):
        text += "."
    return text


def reason_of(error: ServiceError) -> Text:
    """What the refusal says, as catalog text (a plain reason is shown as it is)."""
    raw = error.args[0] if error.args else None
    if isinstance(raw, Text):
        return raw
    reason: object = error.reason
    return reason if isinstance(reason, Text) else as_text(str(reason))


def user_error(error: ServiceError, code: str = SOURCE) -> str:
    """The refusal as a sentence for the user in the language ``code``, with a hint where one
    helps."""
    reason = reason_of(error)
    words = render(reason, code).strip() or render(_("that is not possible now"), code)
    text = sentence(words)
    if isinstance(error, IllegalMoveError):
        hint = _("Type `/move` and pick from the suggestions, or see `/moves`.")
    elif isinstance(error, NotFoundError) and "channel" in str(reason):
        hint = _("Start one with `/challenge`.")
    else:
        return text
    return f"{text} {render(hint, code)}"


def guild_of(result: ActionResult) -> int | None:
    """The server whose channel ``result`` is shown in (None: a direct message channel)."""
    if result.game is not None:
        return result.game.guild_id
    if result.challenge is not None:
        return result.challenge.guild_id
    return None
