/* Endgame databases: win/loss/draw of every position with few pieces, solved by retrograde
 * analysis on a CoreRules (never on a variant's name).
 *
 * A position is stored from the side to move, turned so that the mover moves up (towards square
 * 1) as White does: a position with Black to move is rotated by 180 degrees and its colours
 * swapped first.  The move rules of every variant are symmetric under that turn (a man's forward
 * directions, the crowning rows and the capture rules all follow it), so one side to move is
 * enough; tests/engine/test_endgame.py checks it against the referee.
 *
 * The positions of one material (own men, own kings, their men, their kings) form a slice,
 * indexed by combinatorial ranks: own men on the squares off their crowning row, their men off
 * theirs (an index where two men share a square is unused), then own kings and their kings on the
 * squares left free.  Values take 2 bits.  Slices are solved in dependency order (fewer pieces
 * first, then fewer men: a capture removes pieces, a crowning turns a man into a king), each
 * together with its mirror (the same material seen from the other side), since quiet moves lead
 * from one to the other.  Moves that leave the slice (captures, crownings) are looked up in the
 * slices solved before; the rest is retrograde analysis: positions whose value is known are
 * taken layer by layer, their predecessors found by unmoves (a king steps or flies back, a man
 * steps back against one of its step directions: one row back, or along its row on the
 * orthogonal board), a predecessor is won as soon as one successor is lost for the opponent,
 * and lost once its count of unresolved successors reaches zero with all of them won for the
 * opponent.  What stays unresolved is a draw.  The layer a position is resolved in is its
 * distance in plies to the end of the slice (a capture, a crowning or the end of the game) under
 * best play; the largest one per slice is kept, so the search can tell when a no-progress count
 * could end the game before a won ending is converted.
 *
 * The game's end follows the rules' goal: no piece or no move loses, or wins where the goal is
 * to give everything away; where the first king wins, a crowning move wins and the slices hold
 * men alone.
 */
#ifndef DRAUGHTS_EGDB_H
#define DRAUGHTS_EGDB_H

#include "core.h"

enum { EGDB_UNKNOWN = 0, EGDB_WIN = 1, EGDB_LOSS = 2, EGDB_DRAW = 3 };

/* The most pieces a table may hold (the index tables' dimension). */
#define EGDB_MAX_PIECES 6

typedef struct {
    int men, kings, opp_men, opp_kings; /* the material, from the mover's side */
    uint64_t size;                      /* indices in the slice (unused ones included) */
    uint64_t offset;                    /* first index in the table's data */
    int mirror;                         /* the slice of the same material seen by the other side */
    int dtc;     /* largest distance in plies to the end of the slice of a won or lost position */
    int trusted; /* WIN/LOSS may be believed by the search (egdb_set_policy) */
} EgdbSlice;

typedef struct Egdb {
    CoreRules rules;
    int max_pieces;
    int nslices;
    EgdbSlice *slices;
    int16_t slice_of[EGDB_MAX_PIECES + 1][EGDB_MAX_PIECES + 1][EGDB_MAX_PIECES + 1]
                    [EGDB_MAX_PIECES + 1];
    uint64_t total;      /* indices over all slices */
    uint8_t *data;       /* 2 bits per index, 4 per byte, little end first */
    int owns_data;       /* data was allocated here (else it belongs to the caller) */
    int solved;          /* every slice has its values */
    /* index helpers */
    int squares, men_squares;
    int bit_of[CORE_MAX_BITS];          /* square index (PDN square - 1) to internal bit */
    int square_of[CORE_MAX_BITS];       /* internal bit to square index, -1 off the board */
    int men_index[2][CORE_MAX_BITS];    /* square index to rank among the men's squares, or -1 */
    int men_square[2][CORE_MAX_BITS];   /* and back */
    uint64_t binom[CORE_MAX_BITS + 1][EGDB_MAX_PIECES + 1];
    /* Distances of one slice pair, recomputed on demand (egdb_distances): dist_slice is the
     * first slice of the pair plus 1 (0: none); dist[0] its distances, dist[1] its mirror's. */
    int dist_slice;
    uint8_t *dist[2];
} Egdb;

/* Set up the slices of every material of up to `max_pieces` pieces (both sides with at least
 * one) for `r`, of kings alone where a king's moves in a row are limited while its side has men
 * (the runs, which an index has not, decide the rest), of men alone where the first king wins (a
 * crowning ends the game); no values yet.  0, or -1 if max_pieces is out of range or memory is short. */
int egdb_init(Egdb *eg, const CoreRules *r, int max_pieces);
void egdb_free(Egdb *eg);

/* Solve every slice (allocates the data); 0, or -1 when memory is short.  `progress`, if not
 * NULL, is called after each slice pair with the slices done so far. */
int egdb_solve(Egdb *eg, void (*progress)(void *ctx, int done, int total), void *ctx);

/* Use `data` (egdb_bytes(eg) bytes, owned by the caller and kept alive by it) as the values. */
void egdb_attach(Egdb *eg, uint8_t *data);
uint64_t egdb_bytes(const Egdb *eg);

/* The slice and index of a position (any side to move); -1 if its material is not in the table
 * (including a side with no pieces). */
int egdb_locate(const Egdb *eg, const CorePos *p, int *slice, uint64_t *index);

/* The position of an index of a slice, with White (side 0) to move; 0 if the index is unused. */
int egdb_position(const Egdb *eg, int slice, uint64_t index, CorePos *p);

/* The stored value (EGDB_*) of an index. */
static inline int egdb_get(const Egdb *eg, uint64_t i)
{
    return (eg->data[i >> 2] >> ((i & 3) * 2)) & 3;
}

/* The value of a position for its side to move: EGDB_UNKNOWN when its material is not in the
 * table or the values are not there.  A side without pieces has lost (won, where the goal is to
 * give everything away), and so has a side whose opponent has a king where the first king wins
 * (the game ended as it was crowned). */
int egdb_probe(const Egdb *eg, const CorePos *p, int *slice);

/* Distances are kept in a byte; EGDB_FAR stands for a draw (no distance). */
#define EGDB_FAR 255

/* Recompute, from the values, the distance of every position of `slice` and its mirror (plies
 * to the end of the slice under best play: the winner the quickest way, the loser the slowest)
 * and keep them (one pair at a time), unless the pair has more than `max_positions` indices.
 * 0 when they are there, -1 otherwise.  Not thread-safe: the caller holds the table alone. */
int egdb_distances(Egdb *eg, int slice, uint64_t max_positions);

/* Indices in `slice` and its mirror together. */
uint64_t egdb_pair_size(const Egdb *eg, int slice);

/* The two steps of egdb_distances for a pair too large to compute within a move: compute the
 * distances of `slice`'s pair into `d` (allocated here) and return the pair's first slice (-1:
 * memory is short), reading the table only, so searches may go on meanwhile; then keep them
 * (egdb_keep_distances, which takes `d` over) while no search runs. */
int egdb_compute_distances(const Egdb *eg, int slice, uint8_t *d[2]);
void egdb_keep_distances(Egdb *eg, int first, uint8_t *d[2]);

/* Whether the distances kept are `slice`'s pair's. */
int egdb_has_distances(const Egdb *eg, int slice);

/* The distance of an index of the pair egdb_distances kept (EGDB_FAR: a draw), or -1 when that
 * pair is not `slice`'s. */
int egdb_distance(const Egdb *eg, int slice, uint64_t index);

/* Which slices the search may believe a WIN or LOSS of: `counted[i]` says slice i is under an
 * endgame counting rule (the game can be drawn by a move count that depends on more than the
 * position); `quiet_limit` is the no-progress rule in plies (0: none).  A slice is trusted
 * unless it, or a slice it can reach by captures and crownings, is counted, or such a reachable
 * slice needs `quiet_limit` plies or more to convert; the slice's own distance is checked per
 * node against the plies already played without progress (egdb_trusted). */
void egdb_set_policy(Egdb *eg, const uint8_t *counted, int quiet_limit);

/* Whether a WIN or LOSS of `slice` is sure at a node `quiet` plies into a no-progress count of
 * `quiet_limit` plies. */
static inline int egdb_trusted(const Egdb *eg, int slice, int quiet, int quiet_limit)
{
    const EgdbSlice *s = &eg->slices[slice];
    return s->trusted && (quiet_limit <= 0 || quiet + s->dtc < quiet_limit);
}

#endif
