"""The rules of draughts: variants as data, positions, legal moves, notation, FEN/PDN, game records.

Pure Python with no I/O and no dependency on the rest of the project.
"""
