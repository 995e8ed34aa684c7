"""The messages the bot made, kept as Discord keeps them: created by a channel post, a
follow-up or an interaction response, edited, deleted, with their attachments (and the alt text of
each), every components array each has had (a client may still show any of them), and the user
who alone sees an ephemeral one; and the message state a component interaction comes from."""

from __future__ import annotations

import copy
import mimetypes
from typing import Any

from .components import ComponentRefused, check_component_use
from .protocol import APPLICATION_COMMAND, EPHEMERAL, LOADING, now_iso
from .records import RecordedRequest, Upload, uploads_of
from .responses import ApiError
from .state import DiscordState


class MessageStore(DiscordState):
    """Makes, edits and deletes the fake's messages, and answers what they are now."""

    def make_message(
        self,
        rec: RecordedRequest,
        channel_id: str,
        *,
        interaction: dict[str, Any] | None = None,
        body: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Store a new message of the bot in the channel, made from ``body`` (default: the
        request's JSON): a channel post, or a follow-up or response of ``interaction``."""
        body = body if body is not None else (rec.json or {})
        thread = self.threads.get(channel_id)
        if thread is not None and not thread["thread_metadata"]["locked"]:
            # A message in an archived thread that is not locked reopens it, as in Discord.
            thread["thread_metadata"]["archived"] = False
        message_id = self.snowflake()
        guild = self.guild_of(channel_id) or self.guild
        msg: dict[str, Any] = {
            "id": message_id,
            "channel_id": channel_id,
            "guild_id": guild.id,
            "author": self.bot_user,
            "member": self.member_object(self.bot_user["id"], guild=guild),
            "content": body.get("content") or "",
            "timestamp": now_iso(),
            "edited_timestamp": None,
            "tts": bool(body.get("tts", False)),
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": body.get("embeds") or [],
            "components": body.get("components") or [],
            "pinned": False,
            "type": 0,
            "flags": int(body.get("flags") or 0),
        }
        del msg["member"]["user"]
        if channel_id in self.dm_recipients:  # a DM: no guild, no member
            del msg["guild_id"], msg["member"]
        if interaction is not None:
            user = _interaction_user(interaction)
            msg["webhook_id"] = self.application_id
            msg["application_id"] = self.application_id
            msg["type"] = 20 if interaction["type"] == APPLICATION_COMMAND else 0
            msg["interaction_metadata"] = {
                "id": interaction["id"],
                "type": interaction["type"],
                "user": user,
                "authorizing_integration_owners": interaction["authorizing_integration_owners"],
            }
            if msg["flags"] & EPHEMERAL:
                self.ephemeral_for[message_id] = str(user.get("id"))
        msg["attachments"] = self._attachments(rec, channel_id, body, [])
        self.messages[message_id] = msg
        self.remember_components(msg)
        rec.message_id = message_id
        return msg

    def remember_components(self, msg: dict[str, Any]) -> None:
        """Keep the message's components among the states a client may show."""
        versions = self.component_versions.setdefault(msg["id"], [])
        components = copy.deepcopy(msg.get("components") or [])
        if components not in versions:
            versions.append(components)

    def _attachments(
        self,
        rec: RecordedRequest,
        channel_id: str,
        body: dict[str, Any],
        existing: list[dict[str, Any]],
    ) -> list[dict[str, Any]]:
        """Attachments after a create/edit: kept existing ones (by id) plus uploaded files, each
        with the alt text (``description``) of its ``attachments`` entry."""
        if "attachments" in body:
            wanted = {str(a.get("id")) for a in body["attachments"] or [] if isinstance(a, dict)}
            kept = [a for a in existing if a["id"] in wanted]
        else:
            kept = list(existing)
        for upload in uploads_of(rec.parts, body):
            aid = self.snowflake()
            self.files[aid] = upload.data
            url = f"{self.base_url}/attachments/{channel_id}/{aid}/{upload.filename}"
            content_type = upload.content_type
            if content_type in (None, "application/octet-stream"):  # Discord sniffs the type
                content_type = mimetypes.guess_type(upload.filename)[0] or content_type
            attachment: dict[str, Any] = {
                "id": aid,
                "filename": upload.filename,
                "size": len(upload.data),
                "url": url,
                "proxy_url": url,
                "content_type": content_type or "application/octet-stream",
            }
            if upload.description is not None:
                attachment["description"] = upload.description
            kept.append(attachment)
        return kept

    def edit_message(
        self, rec: RecordedRequest, message_id: str, body: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """Apply an edit (``body``, default: the request's JSON) to a stored message: the
        fields it names are replaced, attachments kept by id or added."""
        try:
            msg = self.messages[message_id]
        except KeyError:
            raise ApiError(404, "Unknown Message", 10008) from None
        body = body if body is not None else (rec.json or {})
        for key in ("content", "embeds", "components", "flags"):
            if key in body:
                msg[key] = body[key] if body[key] is not None else ([] if key != "content" else "")
        msg["attachments"] = self._attachments(rec, msg["channel_id"], body, msg["attachments"])
        msg["flags"] = int(msg.get("flags") or 0) & ~LOADING  # a "thinking…" is filled in
        msg["edited_timestamp"] = now_iso()
        self.remember_components(msg)
        rec.message_id = message_id
        return msg

    def delete_message(self, message_id: str) -> None:
        """Delete a message; it is kept aside, so a press on it can be told apart."""
        self.deleted_messages[message_id] = self.messages.pop(message_id)

    def _message_as_seen(self, message: dict[str, Any] | str) -> dict[str, Any]:
        """The message state a component interaction comes from (see
        :meth:`component_interaction`)."""
        if isinstance(message, str):
            stored = self.messages.get(message)
            if stored is None:
                gone = "was deleted" if message in self.deleted_messages else "does not exist"
                raise ComponentRefused(f"message {message} {gone}")
            return stored
        mid = str(message.get("id"))
        stored = self.messages.get(mid)
        if stored is not None and message is stored:
            return stored
        if message is self.deleted_messages.get(mid):
            raise ComponentRefused(f"message {mid} was deleted: no client shows it any more")
        versions = self.component_versions.get(mid)
        if versions is None:
            raise ComponentRefused(f"the fake never held a message {mid}")
        if (message.get("components") or []) not in versions:
            raise ComponentRefused(
                f"message {mid} never had these components, so no client shows them "
                f"(a hand-made message? pass forged=True to model a modified client): "
                f"{message.get('components')!r}"
            )
        return message

    def _check_component_use(
        self,
        message: dict[str, Any],
        custom_id: str,
        values: list[str] | None,
        user_id: str,
    ) -> dict[str, Any]:
        """The component the user used on the message, or :class:`ComponentRefused` (see
        :func:`components.check_component_use`)."""
        return check_component_use(
            message,
            custom_id,
            values,
            user_id,
            shown_only_to=self.ephemeral_for.get(str(message.get("id"))),
            dm_with=self.dm_recipients.get(str(message.get("channel_id"))),
        )

    def original_message(self, token: str) -> dict[str, Any] | None:
        """The message created by the interaction's response, if any."""
        mid = self.original_responses.get(token)
        return None if mid is None else self.messages.get(mid)

    def message_of(self, request: RecordedRequest) -> dict[str, Any] | None:
        """The stored message (as it is now) that a request created or edited: a channel post,
        a follow-up, a callback's reply or update, an edit."""
        return None if request.message_id is None else self.messages.get(request.message_id)

    def ephemeral_messages(self, user_id: str | None = None) -> list[dict[str, Any]]:
        """The ephemeral messages the fake holds (only their user sees them), oldest first."""
        return [
            self.messages[mid]
            for mid, owner in self.ephemeral_for.items()
            if mid in self.messages and (user_id is None or owner == user_id)
        ]

    def uploads_missing_alt_text(self) -> list[tuple[RecordedRequest, Upload]]:
        """Every image the bot uploaded (in a request Discord took) without alt text: no
        ``description`` in its ``attachments`` entry, or only blanks."""
        return [
            (request, upload)
            for request in self.requests
            if 200 <= request.status < 300 and request.parts
            for upload in request.uploads
            if upload.is_image and not (upload.description or "").strip()
        ]


def _interaction_user(interaction: dict[str, Any]) -> dict[str, Any]:
    """The user who made the interaction (``member.user`` in a guild, ``user`` in a DM)."""
    member = interaction.get("member")
    if isinstance(member, dict) and member.get("user"):
        return dict(member["user"])
    return dict(interaction.get("user") or {})
