"""The reference search: the engine as it was before the native core, in pure Python.

Not what the bot plays with (that is the native search, :mod:`engine.native_search`), but what
it is held to and what stands in for it:

- the reference the native search is checked against: the tests have both search the same
  positions and compare evaluations (term for term, :mod:`.evaluate`), keys and, at fixed depths,
  moves and scores; the benchmarks measure the core's speed-up against it;
- the stand-in when the core returns something else: :func:`engine.api.best_move` searches here
  should the native search ever return a move the referee does not list.

So it builds on :mod:`rules` and the shared score scale (:mod:`engine.scores`) alone, never on
the core or anything built on it (``tests/test_architecture.py`` holds it to that).  Its modules:
:mod:`.board` (a position as the search sees it), :mod:`.evaluate` (the classic evaluation) and
:mod:`.search` (the principal-variation search).
"""
