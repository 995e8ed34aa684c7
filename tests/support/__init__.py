"""What the tests of every room share: the fake Discord and the bot launcher of the end-to-end
tests, the service and store harnesses, the PostgreSQL server, shared positions, games and perft
records, and the scripts tests start as subprocesses.

Tests import it as ``support.<module>``: ``pythonpath`` in pyproject.toml puts the project root
and then ``tests/`` on ``sys.path`` (root first, so the rooms ``tests/rules``, ``tests/engine`` and
``tests/render``, plain folders, never stand in for the packages of those names).  A script that
needs the helpers when started by path (the launcher) puts ``tests/`` there itself.
"""
