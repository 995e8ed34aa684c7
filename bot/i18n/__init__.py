"""Languages: words built once in English (:mod:`bot.i18n.text`) and shown in the reader's
language (:mod:`bot.i18n.catalogs`).  Who reads what is the Discord layer's choice: a private
answer in the user's locale, a public message in the server's language, a direct message in the
language the user last used."""

from .catalogs import (
    SOURCE,
    available,
    is_supported,
    language_name,
    negotiate,
    number,
    placeholders,
    render,
    template,
    translations,
)
from .text import (
    N_,
    Arg,
    Kind,
    Text,
    _,
    _n,
    _p,
    as_text,
    clauses,
    duration,
    from_rules,
    join,
    listed,
    verbatim,
)

__all__ = [
    "N_",
    "SOURCE",
    "Arg",
    "Kind",
    "Text",
    "_",
    "_n",
    "_p",
    "as_text",
    "available",
    "clauses",
    "duration",
    "from_rules",
    "is_supported",
    "join",
    "language_name",
    "listed",
    "negotiate",
    "number",
    "placeholders",
    "render",
    "template",
    "translations",
    "verbatim",
]
