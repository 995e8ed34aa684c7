"""What the fake records of each REST request: the request as it came
(:class:`RecordedRequest`), its multipart parts (:class:`Part`) and the files they upload
(:class:`Upload`), and the :class:`Violation` of a body Discord would have refused."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .protocol import IMAGE_EXTENSIONS


@dataclass
class Part:
    """One part of a multipart request body."""

    name: str
    filename: str | None
    content_type: str | None
    data: bytes


@dataclass
class RecordedRequest:
    """One REST request the client made, as the fake received it."""

    method: str
    path: str  # without the /api/v10 prefix, e.g. "/interactions/1/tok/callback"
    query: dict[str, str]
    headers: dict[str, str]
    json: Any = None  # the JSON body, or the decoded ``payload_json`` part of a multipart body
    parts: list[Part] = field(default_factory=list)
    body: bytes = b""
    unknown: bool = False  # no fake endpoint matched (answered 404)
    status: int = 0
    injected: bool = False  # answered by an injected fault (see FakeDiscord.inject)
    error: dict[str, Any] | None = None  # the error body, when the fake refused the request
    message_id: str | None = None  # the message this request created or edited, if any
    held: bool = False  # handled, its answer held back (see FakeDiscord.inject's ``hold``)

    @property
    def files(self) -> dict[str, bytes]:
        """Uploaded files by filename."""
        return {p.filename: p.data for p in self.parts if p.filename is not None}

    @property
    def message_body(self) -> dict[str, Any]:
        """The message part of the body: ``data`` of an interaction callback, else the body."""
        body = self.json if isinstance(self.json, dict) else {}
        if re.fullmatch(r"/interactions/\d+/[^/]+/callback", self.path):
            return dict(body.get("data") or {})
        return dict(body)

    @property
    def uploads(self) -> list[Upload]:
        """The files uploaded with this request, each with its entry of the body's
        ``attachments`` array (alt text in ``description``), in upload order."""
        return uploads_of(self.parts, self.message_body)

    def __repr__(self) -> str:
        flag = " UNKNOWN" if self.unknown else ""
        flag += " INJECTED" if self.injected else ""
        return f"<{self.method} {self.path} -> {self.status}{flag}>"


@dataclass(frozen=True)
class Upload:
    """One uploaded file as Discord reads it: the ``files[n]`` part and the entry with ``id``
    ``n`` in the message's ``attachments`` array (discord.py's ``File(description=...)`` puts
    the alt text there)."""

    filename: str
    description: str | None
    data: bytes
    content_type: str | None = None

    @property
    def is_image(self) -> bool:
        return self.filename.lower().endswith(IMAGE_EXTENSIONS) or (
            self.content_type or ""
        ).startswith("image/")


def uploads_of(parts: Iterable[Part], body: dict[str, Any]) -> list[Upload]:
    """Pair each file part (``files[n]``, or the n-th file part) with the ``attachments``
    entry whose ``id`` is ``n``."""
    entries: dict[str, dict[str, Any]] = {}
    for entry in body.get("attachments") or []:
        if isinstance(entry, dict) and entry.get("id") is not None:
            entries[str(entry["id"])] = entry
    out: list[Upload] = []
    files = [p for p in parts if p.filename is not None]
    for index, part in enumerate(files):
        match = re.fullmatch(r"files\[(\d+)\]", part.name)
        entry = entries.get(match[1] if match else str(index), {})
        description = entry.get("description")
        out.append(
            Upload(
                filename=str(part.filename),
                description=description if isinstance(description, str) else None,
                data=part.data,
                content_type=part.content_type,
            )
        )
    return out


@dataclass
class Violation:
    """A request Discord would have refused for its body: the bot's bug, never the test's."""

    method: str
    path: str
    problems: list[str]
    body: Any = None

    def __repr__(self) -> str:
        return f"<Violation {self.method} {self.path}: {'; '.join(self.problems)}>"
