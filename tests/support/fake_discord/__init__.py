"""A fake Discord API (REST + gateway) on 127.0.0.1 that the real, unmodified discord.py client
can talk to, for end-to-end tests of the bot.

Imported as a package (``from support.fake_discord import FakeDiscord``; pytest puts ``tests/`` on
``sys.path``, see ``tests/support/__init__.py``). The package re-exports what tests import; its
modules each do one job (see *Modules* at the end).

The bot process is pointed at the fake by ``tests/support/discord_launcher.py`` (it overrides
``discord.http.Route.BASE`` and ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` and guards
the process against any non-loopback connection). The fake:

* serves the gateway at ``/gateway``: HELLO, IDENTIFY → READY + one GUILD_CREATE per guild of
  the session's shard, heartbeats, RESUME, member chunk requests; :meth:`FakeDiscord.dispatch`
  pushes any event (to the shard of its guild, see *Guilds and shards* below);
* serves the REST endpoints discord.py uses at start-up (``GET /gateway/bot`` included), for
  application commands, interaction responses, follow-ups, channel messages and threads under
  ``/api/v10``; unknown routes answer 404 and are recorded with ``unknown=True``;
* records every REST request (:attr:`FakeDiscord.requests`) with its JSON body or multipart
  parts (``payload_json`` decoded into ``json``, files kept as bytes), and every gateway payload
  the client sent (:attr:`FakeDiscord.gateway_received`);
* builds interaction payloads (:meth:`FakeDiscord.command_interaction`,
  :meth:`FakeDiscord.autocomplete_interaction`, :meth:`FakeDiscord.button_interaction`,
  :meth:`FakeDiscord.select_interaction`), a component interaction carrying the whole message
  as Discord sends it (an ephemeral one with flag 64);
* keeps every message it created (:attr:`FakeDiscord.messages`, with later edits: a PATCH of a
  channel or webhook message, a type 7 update, replaces content, embeds, components and
  attachments), ephemeral ones included (:attr:`FakeDiscord.ephemeral_for`: message id -> the
  one user who sees it; the channel routes answer 404 10008 for them, as Discord does), every
  components array each message has had (:attr:`FakeDiscord.component_versions`), the request
  that made or last edited each message (:meth:`FakeDiscord.message_of`), and each uploaded
  file with the alt text of its ``attachments`` entry (:attr:`RecordedRequest.uploads`,
  :meth:`FakeDiscord.uploads_missing_alt_text`);
* serves DMs: ``POST /users/@me/channels`` opens the bot's DM channel with a guild user (type 1,
  one id per user: :meth:`FakeDiscord.dm_channel_id`), posts there are recorded like channel
  posts (:meth:`FakeDiscord.dms_to`, :meth:`FakeDiscord.dm_messages`), and a component there
  comes as a DM interaction (``user``, no guild, context 1).

Guilds and shards, as on Discord:

* **Guilds.** ``FakeDiscord(guilds=[...])`` serves several guilds (``guild=`` one; default: one
  :class:`Guild` with the fixed ids the tests use). :attr:`FakeDiscord.guild` is the first, the
  primary one, the default for whatever names no channel. Everything else follows the channel:
  a channel or thread belongs to one guild (:meth:`FakeDiscord.guild_of`), and its messages,
  threads, interactions (``guild_id``, ``guild_locale``, the member and its permissions,
  ``authorizing_integration_owners``) and CHANNEL_UPDATEs are that guild's; an interaction
  from a guild channel by a user who is not a member there raises ValueError. A user may be
  in several guilds (``GET /users/{id}`` and DMs know a user of any of them). Guild commands
  are per guild (``PUT /applications/{app}/guilds/{guild}/commands`` for a guild the bot is
  in; another answers 403 50001 Missing Access); global ones apply in every guild and in DMs.
  :func:`guild_on_shard` (``shard, shard_count, index``) makes a guild on a chosen shard, with
  ids of its own (see its docstring), its own three members unless given ``users`` (e.g. the
  primary guild's, to share them); ``Guild.channel_id("general")`` and ``Guild.user_id(name)``
  find its ids.
* **Shards.** ``GET /gateway/bot`` answers the fake's gateway url, ``shards``
  (:attr:`FakeDiscord.recommended_shards`: set by the test, else :attr:`FakeDiscord.shard_count`,
  else 1) and a fixed ``session_start_limit`` (discord.py's ``AutoShardedClient`` asks only when it
  has no ``shard_count``, and connects there; with one, it connects to its default gateway, which
  the launcher points here, as it does to re-identify a shard after op 9 ``false``). An IDENTIFY
  with ``"shard": [id, count]`` makes a session on that shard (:class:`GatewaySession`: ``shard``,
  ``connected``, ``identify``): READY carries that ``shard`` and lists only the guilds with
  ``(guild_id >> 22) % count == id`` (:func:`shard_of`), each followed by its GUILD_CREATE; one
  without ``shard`` is shard ``[0, 1]``, every guild. A bad shard (not two integers, ``count < 1``,
  ``id >= count``, or a count other than :attr:`FakeDiscord.shard_count` when the test set one) is
  closed with 4010 "Invalid shard.", and no shard at all while the test set a ``shard_count`` above
  1 with 4011 "Sharding required." (both recorded in :attr:`FakeDiscord.gateway_closes`). An event
  goes to the sessions whose shard covers its ``guild_id``; an event with none (a DM interaction) to
  shard 0; an unsharded session gets everything. :meth:`FakeDiscord.send_interaction` records where
  each interaction went (:meth:`FakeDiscord.delivered_to`, :meth:`GatewaySession.interactions`);
  when there are gateway sessions but none on the interaction's shard it raises
  :class:`NoSessionForGuild` instead of dispatching (``must_reach=False``: recorded in
  :attr:`FakeDiscord.undelivered` and sent to nobody, a shard that is down); with no session at all
  it is only recorded there (tests that drive the REST routes themselves). A RESUME resumes its
  session on its shard; an IDENTIFY drops the disconnected sessions of the shards it overlaps (a new
  process took over). :meth:`FakeDiscord.connected_shards`, :meth:`FakeDiscord.session_on_shard`,
  :meth:`FakeDiscord.wait_for_shards`, and ``request_reconnect``/``invalidate_session`` take a
  ``shard=`` to act on one shard.  :meth:`FakeDiscord.hold_ready` keeps the sessions that identify
  short of discord.py's ready (more guilds keep arriving, as for a bot in hundreds of servers)
  until :meth:`FakeDiscord.release_ready`.

It is as strict as Discord, and can fail the way Discord fails:

* **Documented limits and the OpenAPI schema.** Every request body (JSON, or a multipart
  ``payload_json``) is checked against Discord's documented limits
  (``tests/support/discord_limits.py``: command names and sizes, message content, embeds,
  components, attachments, callback types and flags, autocomplete choices, nonces) and against the
  request-body schema of the matching operation in Discord's own OpenAPI description
  (``tests/support/openapi_check.py``; skipped, with the reason in
  :data:`openapi_check.SKIP_REASON`, only when no copy of the spec can be found). A body Discord
  would refuse is answered as Discord does (400, code 50035 "Invalid Form Body" with an ``errors``
  object; 50006 "Cannot send an empty message"; 413 40005 for oversized files) and appended to
  :attr:`FakeDiscord.violations`; the ``fake`` fixture fails any test that leaves a violation
  behind. Refusals that depend on timing or state rather than on the body (a second callback: 400
  40060; a callback later than :attr:`FakeDiscord.interaction_window` seconds after the dispatch,
  default 3.0: 404 10062; a webhook call on an expired token: 401 50027; a post without permission:
  403 50013/50001) are answered the same way but recorded only in
  :attr:`FakeDiscord.refusals`, since tests provoke them on purpose.
* **Fault injection.** ``fault = fake.inject(method, path, status, *, code=0, message=None,
  times=1, retry_after=None, delay=0.0)``: the next ``times`` requests (``-1``: until
  :meth:`FakeDiscord.clear_faults`) whose method matches and whose path after ``/api/v10``
  fully matches the regex ``path`` get that error instead of being handled; they are recorded
  with ``injected=True`` and counted in ``fault.hits``. ``delay`` sleeps first (a slow Discord);
  a ``status`` below 400 (e.g. 0) only delays and then handles the request normally, and
  ``hold=`` seconds (or until the faults are cleared) holds its answer back after handling it
  (the message exists; a bot killed meanwhile never hears of it). A 429 has
  Discord's body (``retry_after``, ``global: false``) and the ``Retry-After``, ``Via`` and
  ``X-RateLimit-*`` headers discord.py reads.
* **Component interactions the client could not send.** A press or a select is refused with
  :class:`ComponentRefused` (an AssertionError, failing the test at once) when Discord would
  refuse the client (400 50035 COMPONENT_VALIDATION_FAILED) and never tell the bot: no such
  custom id on the message as the user's client shows it, a disabled component, a button used
  as a select or the reverse, values not among the options, repeated, or outside
  ``min_values``..``max_values``, someone else's ephemeral message or DM, a deleted message, a
  message state that never existed (see :meth:`FakeDiscord.component_interaction`;
  ``forged=True`` models a modified client on purpose).
* **DMs refused.** ``fake.block_dms(user_id)``: posts into the user's DM channel answer 403 50007
  "Cannot send messages to this user" (a refusal); ``fake.unblock_dms(user_id)`` undoes it.
* **Tokens and the 3-second window.** ``fake.interaction_window`` (seconds, settable per test);
  ``fake.expire_token(token)`` makes follow-ups and webhook edits on it fail with 401 50027 (as
  Discord does 15 minutes after the interaction, :attr:`FakeDiscord.token_lifetime`).
* **Permissions.** ``fake.deny(channel_id, *names)`` (``view_channel``, ``send_messages``,
  ``embed_links``, ``attach_files``, ``send_messages_in_threads``, ``create_public_threads``,
  ``read_message_history``): posts there get 403 50013 "Missing Permissions" (50001 "Missing
  Access" without ``view_channel``), the bot's overwrite in the channel says so (a
  CHANNEL_UPDATE is dispatched), and interactions from that channel carry ``app_permissions``
  without those bits; ``fake.allow(channel_id)`` undoes it. Interaction responses need no
  channel permission, as on Discord.
* **Gateway.** ``await fake.request_reconnect()`` sends op 7 and ``await
  fake.invalidate_session(resumable)`` op 9 (to every connected session, or with ``shard=`` to
  that shard's); RESUME replays the events the session missed and answers RESUMED, or op 9
  ``false`` for an unknown or invalidated session (the client then identifies afresh).
  :attr:`FakeDiscord.sessions_identified` and :attr:`FakeDiscord.sessions_resumed` count
  identifies and resumes.
* **Outages.** ``await fake.go_offline()`` closes every socket and stops listening (new
  connections are refused); ``await fake.go_online()`` listens again on the same port.
* **Channel history.** ``GET /channels/{id}/messages`` answers a page as Discord does (``limit``
  1 to 100, at most one of ``after``/``before``/``around``, newest first, ephemeral messages
  left out); without ``read_message_history`` the page is empty, not refused.
* **Idempotent posts.** A channel message created with ``nonce`` and ``enforce_nonce: true``
  within :attr:`FakeDiscord.nonce_window` seconds of an earlier one with the same nonce in the
  same channel returns that message and creates nothing.

Modules (each imports only those listed before it):

* ``protocol``: Discord's API numbers, the fake's time limits, snowflakes.
* ``records``: what is recorded of a request (:class:`RecordedRequest`, :class:`Upload`,
  ``Violation``).
* ``guilds``: :class:`Guild`, :func:`guild_on_shard`, :func:`shard_of`, user objects.
* ``components``: message components, and the rules that refuse a component interaction.
* ``responses``: JSON answers, and Discord's errors (``ApiError``).
* ``faults``: injected faults and what they answer.
* ``sessions``: :class:`GatewaySession`, :class:`NoSessionForGuild`.
* ``state``: ``DiscordState``, everything the fake holds and records, and the waits on it.
* ``messages``: ``MessageStore``, the messages made, edited and deleted, as clients see them.
* ``gateway``: ``GatewayHub``, the websocket sessions and events dispatched to shards.
* ``interactions``: ``InteractionBuilders``, interaction payloads as Discord sends them.
* ``controls``: ``Controls``, faults, expired tokens, permissions and DMs on demand.
* ``validation``: request bodies against Discord's limits and its OpenAPI schema.
* ``refusals``: ``Refusals``, the refusals of REST requests that depend on state and time, the
  base of each group of route handlers.
* ``routes_app``, ``routes_interactions``, ``routes_channels``: the REST route handlers, in groups
  that each hold the fake (``AppRoutes``, ``InteractionRoutes``, ``ChannelRoutes``).
* ``rest``: ``RestApi``, every REST request recorded, checked, faulted or routed to a group.
* ``server``: :class:`FakeDiscord`, the aiohttp server: the state with the behaviours of
  ``messages``, ``gateway``, ``interactions`` and ``controls`` mixed in (what tests call on
  ``fake``), and a ``RestApi`` over it (what the bot calls).

Everything runs on the test's event loop; no thread is involved.
"""

from .components import ComponentRefused, find_component
from .gateway import LATE_GUILDS
from .guilds import Guild, guild_on_shard, shard_of, user_object
from .protocol import ALL_PERMISSIONS, ATTACHMENT_SIZE_LIMIT, EPHEMERAL, MEMBER_PERMISSIONS
from .records import RecordedRequest, Upload
from .server import FakeDiscord
from .sessions import NoSessionForGuild

__all__ = [
    "ALL_PERMISSIONS",
    "ATTACHMENT_SIZE_LIMIT",
    "EPHEMERAL",
    "LATE_GUILDS",
    "MEMBER_PERMISSIONS",
    "ComponentRefused",
    "FakeDiscord",
    "Guild",
    "NoSessionForGuild",
    "RecordedRequest",
    "Upload",
    "find_component",
    "guild_on_shard",
    "shard_of",
    "user_object",
]
