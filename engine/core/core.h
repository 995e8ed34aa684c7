/* The native core's data: bitboards, positions, moves and the rules of one variant.
 *
 * Everything is plain C with no Python in it, so the future search can walk the tree without
 * touching a Python object.  The bit layout is exactly the one of rules/geometry.py: PDN square s
 * (1-based) lives at bit (s - 1) + (s - 1) / size, one unused "ghost" bit after every pair of
 * rows, so the four diagonal neighbours of every square are at a constant offset and a shift of a
 * whole bitboard never wraps from one edge to the other.  A 10x10 board needs 54 bits, so one
 * uint64_t holds the 8x8 and 10x10 boards; 12x12 needs 77 bits.  The same sources are therefore
 * compiled twice (setup.py): engine._core with 64-bit boards (CORE_MAX_SIZE 10), and
 * engine._core_wide with -DCORE_WIDE=1, 128-bit boards (unsigned __int128, CORE_MAX_SIZE 12).
 * Everything that depends on the width is in this file (the type, the sizes, core_popcount,
 * core_lowest and the module's name), so the 64-bit build's code paths are unchanged by the
 * wide one and the rest of the core is written once for both.
 *
 * On an orthogonal board (every square played, pieces moving along rows and columns) square s is
 * bit s - 1: 8x8 fills the 64 bits, with no room for ghosts, so a sideways shift would wrap from
 * one row's end to the next row's start.  Every shift therefore goes through the mask of the
 * squares that have a neighbour (shift_from) or two squares (jump_from) that way; on the diagonal
 * boards those masks are every playable bit and change nothing.  The direction indices keep their
 * roles on both boards: 0 is up, 3 is down, and d ^ 3 is the way back from d.
 *
 * The tables hold eight directions, as rules/geometry.py's LINES: 0-3 the lines pieces move
 * along, 4-7 the board's other lines (up, left, right, down on a diagonal board: the next playing
 * square of the column two rows on, of the row two columns on), along which only the variants
 * with CoreRules.eight_way capture.  A sideways shift along a row of the diagonal
 * board would wrap to the next row too, so directions 4-7 keep real masks on every board.
 *
 * Where the variant limits a king's non-capturing moves in a row (Variant.king_move_limit), a
 * position also carries each side's run (CorePos.runs): which king made the side's last moves
 * and how many in a row, as rules.position.Position.king_runs holds it.
 *
 * Positions are seen from the side to move, as in engine/reference/board.py and the rules' raw
 * generator: "own" pieces move, "opp" pieces are captured; side 0 is White (moves towards
 * square 1) and side 1 is Black.
 */
#ifndef DRAUGHTS_CORE_H
#define DRAUGHTS_CORE_H

#include <stdint.h>

#ifdef CORE_WIDE
#if !defined(__SIZEOF_INT128__)
#error "the wide core (CORE_WIDE) needs a compiler with unsigned __int128"
#endif
__extension__ typedef unsigned __int128 core_bb;
/* Largest board whose ghost layout fits in 128 bits here (12x12: 77 bits). */
#define CORE_MAX_SIZE 12
#define CORE_MAX_BITS 128
/* The Python module these sources make (module.c; the types' names start with it). */
#define CORE_MODULE_NAME "engine._core_wide"
#define CORE_MODULE_INIT PyInit__core_wide
#else
typedef uint64_t core_bb;
/* Largest board whose ghost layout fits in 64 bits (10x10: 54 bits; 12x12 needs the wide build). */
#define CORE_MAX_SIZE 10
#define CORE_MAX_BITS 64
#define CORE_MODULE_NAME "engine._core"
#define CORE_MODULE_INIT PyInit__core
#endif

#define CORE_BIT(i) ((core_bb)1 << (i))

/* The number of set bits of a bitboard, and the index of its lowest set bit (b != 0). */
#if defined(CORE_WIDE)
static inline int core_popcount(core_bb b)
{
    return __builtin_popcountll((uint64_t)b) + __builtin_popcountll((uint64_t)(b >> 64));
}
static inline int core_lowest(core_bb b)
{
    uint64_t low = (uint64_t)b;
    return low ? __builtin_ctzll(low) : 64 + __builtin_ctzll((uint64_t)(b >> 64));
}
#elif defined(__GNUC__) || defined(__clang__)
static inline int core_popcount(core_bb b) { return __builtin_popcountll(b); }
static inline int core_lowest(core_bb b) { return __builtin_ctzll(b); }
#else
static inline int core_popcount(core_bb b)
{
    int n = 0;
    for (; b; b &= b - 1)
        n++;
    return n;
}
static inline int core_lowest(core_bb b)
{
    int n = 0;
    for (; !(b & 1); b >>= 1)
        n++;
    return n;
}
#endif
/* Longest ray from a square, not counting the square itself. */
#define CORE_MAX_RAY (CORE_MAX_SIZE - 1)
/* Directions in the tables: the four lines pieces move along, then the board's other four. */
#define CORE_DIRECTIONS 8
/* The most non-capturing moves in a row a king may be limited to: a run is kept in 10 bits, and
 * the Zobrist keys of rules.position (ZOBRIST_RUN) have runs 1 to 7. */
#define CORE_MAX_KING_RUN 7

/* Directions, in the order of rules.geometry.DIRECTIONS; "up" is towards square 1.  The same
 * indices on an orthogonal board: up, left, right, down. */
enum { CORE_UP_LEFT = 0, CORE_UP_RIGHT = 1, CORE_DOWN_LEFT = 2, CORE_DOWN_RIGHT = 3 };
enum { CORE_UP = 0, CORE_LEFT = 1, CORE_RIGHT = 2, CORE_DOWN = 3 };
/* The other lines of a diagonal board (rules.geometry.CROSS_DIRECTIONS). */
enum { CORE_CROSS_UP = 4, CORE_CROSS_LEFT = 5, CORE_CROSS_RIGHT = 6, CORE_CROSS_DOWN = 7 };
/* Largest orthogonal board: 8x8 fills the 64 bits (in both builds). */
#define CORE_MAX_ORTHOGONAL_SIZE 8

/* rules.variants.Crowning, as codes (engine/native.py maps the enum onto these). */
enum {
    CORE_CROWN_ENDS_MOVE = 0,        /* crowned on arrival, the move ends there */
    CORE_CROWN_AT_END = 1,           /* crowned only if the move ends on the far row */
    CORE_CROWN_CONTINUES_AS_KING = 2 /* crowned on arrival, the capture goes on as a king */
};

/* rules.variants.Precedence, as codes: the criteria by which a capture must be chosen, applied
 * in the variant's order (engine/native.py maps the enum onto these). */
enum {
    CORE_PREFER_MOST_PIECES = 1, /* the most pieces taken */
    CORE_PREFER_WITH_KING = 2,   /* a king's capture rather than a man's */
    CORE_PREFER_MOST_KINGS = 3,  /* the most kings taken */
    CORE_PREFER_KINGS_FIRST = 4, /* the kings taken as early in the sequence as possible */
    CORE_PREFER_MOST_VALUE = 5   /* the most value taken: a man CORE_MAN_VALUE, a king
                                  * CORE_KING_VALUE (rules.rule_kinds.MAN_VALUE, KING_VALUE) */
};
#define CORE_MAX_PRECEDENCE 4
#define CORE_MAN_VALUE 100
#define CORE_KING_VALUE 199

/* rules.variants.Goal, as codes. */
enum {
    CORE_GOAL_STANDARD = 0,  /* no piece or no move: the side to move has lost */
    CORE_GOAL_GIVE_AWAY = 1, /* no piece or no move: the side to move has won */
    CORE_GOAL_FIRST_KING = 2 /* the first crowning wins */
};

/* What a variant says about moves and the goal, as rules.variants.Variant holds it. */
typedef struct {
    int size;
    int men_capture_backward;
    int men_capture_kings;
    int flying_kings;
    int crowning;                          /* a CORE_CROWN_* code */
    int precedence[CORE_MAX_PRECEDENCE];   /* CORE_PREFER_* codes, in order */
    int nprecedence;                       /* 0: any capture may be chosen */
    int goal;                              /* a CORE_GOAL_* code */
    int mirrored;                          /* a1 is not a playing square (rules.geometry) */
    int king_stops_behind;   /* a flying king lands just beyond the piece it takes */
    int removed_at_once;     /* each captured piece leaves the board as it is jumped */
    int orthogonal;          /* every square played, along rows and columns (rules.geometry) */
    int king_turns_back;     /* a capturing flying king may turn 180 degrees between jumps */
    int lone_pieces_draw;    /* drawn as soon as each side has one piece left */
    int eight_way;           /* men and kings also capture along the board's other lines */
    int king_move_limit;     /* while a side has men, one king's non-capturing moves in a row
                              * (0: no limit; at most CORE_MAX_KING_RUN) */
} CoreRuleData;

/* The rules of one variant plus the tables of its board size; read-only once built. */
typedef struct {
    int size;     /* squares along one side */
    int half;     /* playable squares per row */
    int squares;  /* playable squares (N) */
    int bits;     /* internal bits used, ghosts included (64 on an orthogonal 8x8) */
    core_bb valid;          /* every playable bit */
    core_bb promo[2];       /* crowning row per side: the top row for White, the bottom for Black */
    int men_capture_backward;
    int men_capture_kings;
    int flying_kings;
    int crowning;           /* a CORE_CROWN_* code */
    int precedence[CORE_MAX_PRECEDENCE]; /* CORE_PREFER_* codes, in order */
    int nprecedence;
    int majority_only;      /* the precedence is the most pieces alone (a faster key) */
    int ranks_kings;        /* a precedence criterion counts or orders the kings taken */
    int values_kings;       /* the precedence counts the value taken (CORE_PREFER_MOST_VALUE):
                             * the capture search counts the kings taken instead of ordering
                             * them (kings first is refused with it) */
    int goal;               /* a CORE_GOAL_* code */
    int mirrored;           /* a1 is not a playing square: the ghost bit follows each pair's
                             * first row, and every row's squares sit one column over */
    int king_stops_behind;  /* a flying king's capture lands just beyond its victim */
    int removed_at_once;    /* captured pieces leave the board as they are jumped: the capturing
                             * piece may cross or land on their squares later in the move */
    int orthogonal;         /* every square played, pieces move along rows and columns */
    int king_turns_back;    /* a capturing flying king may take the way it came */
    int lone_pieces_draw;   /* one piece against one is a draw at once: the search scores it 0
                             * and the endgame tables value it so (rules.variants' EndgameRule
                             * of 0 moves) */
    int eight_way;          /* men and kings capture along all eight directions */
    int capture_ndirs;      /* the directions a king captures in: 4, or 8 where eight_way */
    int capture_kind;       /* the compiled copy of the capture search these rules need
                             * (movegen.c: 0 plain, 1 ranked, 2 no turning back, 3 general) */
    int king_move_limit;    /* a king's non-capturing moves in a row while its side has men
                             * (0: no limit): CorePos.runs holds the runs */
    int delta[CORE_DIRECTIONS];          /* internal index offset of the neighbour */
    core_bb shift_from[CORE_DIRECTIONS]; /* per direction, the squares with a neighbour that way */
    core_bb jump_from[CORE_DIRECTIONS];  /* per direction, the squares with two squares beyond */
    int step_dirs[2][4];    /* directions a man of each side steps in, in generation order */
    int step_ndirs[2];
    int man_dirs[2][CORE_DIRECTIONS]; /* directions a man of each side captures in, in order */
    int man_ndirs[2];
    int8_t neighbour[CORE_MAX_BITS][CORE_DIRECTIONS];         /* the neighbour's index, or -1 */
    int8_t ray[CORE_MAX_BITS][CORE_DIRECTIONS][CORE_MAX_RAY]; /* squares along, nearest first */
    uint8_t ray_len[CORE_MAX_BITS][CORE_DIRECTIONS];
} CoreRules;

/* A position from the mover's side.  `runs` is 0 unless the rules limit a king's moves in a row;
 * then its low 16 bits are the mover's run and its high 16 bits the opponent's, each 0 (none) or
 * the king's internal index | the run's length << CORE_RUN_SHIFT (rules.position's KingRuns, the
 * same facts seen from the mover; it fits in the struct's padding after `side`). */
typedef struct {
    core_bb men, kings, opp_men, opp_kings;
    int side;
    uint32_t runs;
} CorePos;

/* One packing in both builds: 7 bits of index (bit 76 of a 12x12 board fits), the run above. */
#define CORE_RUN_SHIFT 7
#define CORE_RUN_INDEX 127u
#define CORE_RUN_HALF 0xFFFFu

/* A raw move as rules.movegen.RawMove: one per capture sequence (landing path), so two routes
 * with the same origin, destination and captured pieces appear twice, as they do in rules. */
typedef struct {
    core_bb from, to, captured;
    int crowns;
} CoreMove;

/* The internal bit of PDN `square` and its column (0 = a), as rules/geometry.py lays them out;
 * its row (0 = the top) is (square - 1) / r->half.  They read r's size, mirrored and orthogonal
 * alone (core_rules_init sets those first). */
static inline int core_index_of(const CoreRules *r, int square)
{
    int k = square - 1;
    if (r->orthogonal)
        return k;
    return k + (k + (r->mirrored ? r->size / 2 : 0)) / r->size;
}
static inline int core_column_of(const CoreRules *r, int square)
{
    int k = square - 1;
    if (r->orthogonal)
        return k % r->size;
    int row = k / (r->size / 2);
    return 2 * (k % (r->size / 2)) + ((row % 2 == 0) != (r->mirrored != 0));
}

/* Whether `p` is drawn by the rule of one piece each (CoreRules.lone_pieces_draw): each side
 * has exactly one piece.  Checked after "no move loses", as rules.game checks the position's
 * outcome before its draws. */
static inline int core_lone_pieces(const CoreRules *r, const CorePos *p)
{
    core_bb own = p->men | p->kings, opp = p->opp_men | p->opp_kings;
    return r->lone_pieces_draw && own && !(own & (own - 1)) && opp && !(opp & (opp - 1));
}

/* The king of the side to move that has made the limit of non-capturing moves in a row and may
 * only capture now (rules.position.Position.frozen_king), or 0. */
static inline core_bb core_frozen_king(const CoreRules *r, const CorePos *p)
{
    uint32_t own = p->runs & CORE_RUN_HALF;
    if (!own || (int)(own >> CORE_RUN_SHIFT) < r->king_move_limit)
        return 0;
    return CORE_BIT(own & CORE_RUN_INDEX);
}

/* Fill *r for the rules of `d`; 0 on success, -1 if the size (even, 4..CORE_MAX_SIZE, at most
 * CORE_MAX_ORTHOGONAL_SIZE and not mirrored when orthogonal), the crowning, a precedence or the
 * goal code is not supported, or the eight-way captures (diagonal boards only), the king-move
 * limit (0 to CORE_MAX_KING_RUN) or the precedence (the most value with kings first) do not go
 * together. */
int core_rules_init(CoreRules *r, const CoreRuleData *d);

/* Whether two rules make the same moves and have the same goal (an endgame table built for one
 * serves the other). */
int core_rules_same_game(const CoreRules *a, const CoreRules *b);

#endif
