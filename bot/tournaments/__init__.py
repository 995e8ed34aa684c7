"""Tournaments without the bot around them: pairing (Swiss, round robin, arena), standings and
tiebreaks, from plain values (:mod:`.model`).  Imports nothing of the project, and nothing that
does I/O, so every rule of it is tested on its own and runs anywhere (the benchmarks, a worker)."""
