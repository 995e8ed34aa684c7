"""The fake Discord server: one aiohttp application on 127.0.0.1 serving the gateway
(:mod:`.gateway`), the REST API (:mod:`.rest`, an object over the fake) and attachment urls,
started, stopped, taken offline and brought back on the same port."""

from __future__ import annotations

import functools

from aiohttp import web

from support import openapi_check

from .controls import Controls
from .interactions import InteractionBuilders
from .protocol import API_PREFIX
from .rest import RestApi


class FakeDiscord(InteractionBuilders, Controls):
    """The fake API server. ``async with FakeDiscord() as fake:`` starts it on a random port.
    Its arguments are :class:`~.state.DiscordState`'s; what it does is told in the package's
    docstring."""

    _runner: web.AppRunner | None = None

    @functools.cached_property
    def _rest_api(self) -> RestApi:
        """The REST API over this fake's state (made once, served again after a restart)."""
        return RestApi(self)

    # ------------------------------------------------------------------ lifecycle

    def _make_app(self) -> web.Application:
        # A fresh application per start: an aiohttp app cannot be served again once cleaned up.
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/attachments/{cid}/{aid}/{filename}", self._rest_api.serve_attachment)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._rest_api.handle)
        return app

    async def start(self) -> None:
        """Listen on ``self.port`` (a free one the first time)."""
        openapi_check.spec()  # parsed once per process; raises if DISCORD_API_SPEC is wrong
        runner = web.AppRunner(
            self._make_app(), access_log=None, handle_signals=False, shutdown_timeout=1.0
        )
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", self.port, reuse_address=True)
        await site.start()
        server = site._server
        assert server is not None and server.sockets  # type: ignore[union-attr]
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self._runner = runner
        self.online = True

    async def stop(self) -> None:
        self.online = False
        if self._runner is not None:
            # Stop listening first: a client told "going away" reconnects at once, and a
            # connection the closing server still accepted would never be answered (the client
            # then waits a minute for its handshake) instead of being refused.
            for site in list(self._runner.sites):
                await site.stop()
        for ws in list(self._sockets):
            await ws.close(code=1001)  # "going away": a client reconnects after it
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def go_offline(self) -> None:
        """Discord goes away: every gateway socket and HTTP connection is closed and the port
        stops listening (connections are refused) until :meth:`go_online`. Gateway sessions
        stay resumable, and events dispatched meanwhile are replayed on RESUME."""
        await self.stop()

    async def go_online(self) -> None:
        """Discord comes back on the same port."""
        await self.start()

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()
