/* Perft in C: the leaf count of the legal-move tree, the standard proof and benchmark of a move
 * generator.  Counted exactly as rules/perft.py counts (one leaf per landing path), with the
 * last ply counted in bulk by core_count; or, `distinct`, with the capture routes of the same
 * origin, destination and captured pieces counted once at every ply, as the published figures of
 * the large boards count them (dctl's unique move generation). */
#ifndef DRAUGHTS_PERFT_H
#define DRAUGHTS_PERFT_H

#include "core.h"

/* The number of move sequences of exactly `depth` plies from `p` (1 for depth 0), one per
 * landing path, or with `distinct` one per distinct move (core_unique_moves).  Returns -1 only if
 * a heap buffer for a position with very many moves could not be allocated. */
int64_t core_perft(const CoreRules *r, const CorePos *p, int depth, int distinct);

#endif
