"""What the tests of every room share: the fake Discord and the bot launcher of the end-to-end
tests, the service and store harnesses, the PostgreSQL server, shared positions and games, and
the scripts tests start as subprocesses.

Tests import it as ``support.<module>``: ``pythonpath`` in pyproject.toml puts ``tests/`` on
``sys.path`` (the rooms themselves are plain folders, not packages, so ``tests/rules`` never hides
the ``rules`` package). Scripts started by path put ``tests/`` there themselves.
"""
