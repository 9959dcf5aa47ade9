/*
 * Exact connect-4 solver for the analysis, `connectx solve` and the opening book's tools. It plays
 * 7x6 unless built for another board of four in a row (see WIDTH below). Standard C11 and libc only,
 * built with `cc -O2 -shared -fPIC` (connectx/solver/build.py) and called through ctypes
 * (connectx/solver/native.py).
 *
 * Pascal Pons' design, written from his description: a position is two bitboards seen from the
 * side to move (`current`, `mask`), H1 = HEIGHT + 1 bits per column with a sentinel on top (7x6):
 *
 *      .  .  .  .  .  .  .      <- sentinel row
 *      5 12 19 26 33 40 47
 *      4 11 18 25 32 39 46
 *      3 10 17 24 31 38 45
 *      2  9 16 23 30 37 44
 *      1  8 15 22 29 36 43
 *      0  7 14 21 28 35 42      <- bottom row
 *
 * Scores follow the shared position files: a side that wins with its k-th stone scores 22 - k
 * on 7x6 (on any board, a win played onto m stones scores (CELLS + 1 - m) / 2 rounded down),
 * a draw is 0, a loss is the negation. The search is negamax with alpha-beta, a transposition
 * table holding lower and upper bounds, non-losing-move pruning, moves ordered by how many
 * winning cells they create (centre first on ties), and null-window narrowing.
 *
 * The one entry point is cx_search: a position and a limit (seconds, nodes, or a stop asked from
 * another thread) in, what was proven by then out: the exact score, or bounds and the best column
 * found. A solver (cx_solver_new) owns its table, so each thread searches with its own and keeps
 * it warm across the related positions it is given; a stopped search keeps its table too, since
 * nothing is stored from a node the limit cut short.
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime's monotonic clock */
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

/* The board: 7x6 unless built with -DWIDTH=... -DHEIGHT=... (connectx/solver/build.py does, one library a
 * board); a board's bitboard needs WIDTH * (HEIGHT + 1) bits. */
#ifndef WIDTH
#define WIDTH 7
#endif
#ifndef HEIGHT
#define HEIGHT 6
#endif
#define H1 (HEIGHT + 1)
#if WIDTH * H1 > 64 || WIDTH > 9
#error "the board does not fit: WIDTH * (HEIGHT + 1) must be at most 64 and WIDTH at most 9"
#endif
#define CELLS (WIDTH * HEIGHT)
#define MIN_SCORE (-(CELLS) / 2)
#define MAX_SCORE ((CELLS + 1) / 2)

typedef uint64_t bits_t;

/* Bit 0 of every column: (2^(WIDTH*H1) - 1) / (2^H1 - 1), the 2^(WIDTH*H1) written so that it
 * wraps to 0 at 64 bits rather than shifting by 64. */
#define BOTTOM_MASK ((((1ULL << (WIDTH * H1 - 1)) * 2) - 1) / ((1ULL << H1) - 1))
#define BOARD_MASK (BOTTOM_MASK * ((1ULL << HEIGHT) - 1))

static inline bits_t column_bits(int col) { return ((1ULL << HEIGHT) - 1) << (col * H1); }

/* The i-th column from the centre outwards, the left one first at each distance: 3 2 4 1 5 0 6 on 7x6. */
static inline int centre_column(int i) { return WIDTH / 2 + (i % 2 ? -(i + 1) / 2 : i / 2); }

typedef struct {
    bits_t current;
    bits_t mask;
    int moves;
} position_t;

/* Empty cells that would complete four for `stones` (playable now or later). */
static inline bits_t winning_cells(bits_t stones, bits_t mask) {
    bits_t r = (stones << 1) & (stones << 2) & (stones << 3); /* vertical */
    bits_t p;
    static const int shifts[3] = {H1, H1 - 1, H1 + 1};
    for (int i = 0; i < 3; i++) {
        int s = shifts[i];
        p = (stones << s) & (stones << 2 * s);
        r |= p & (stones << 3 * s);
        r |= p & (stones >> s);
        p = (stones >> s) & (stones >> 2 * s);
        r |= p & (stones << s);
        r |= p & (stones >> 3 * s);
    }
    return r & (BOARD_MASK ^ mask);
}

static inline bits_t possible(const position_t *p) { return (p->mask + BOTTOM_MASK) & BOARD_MASK; }

static inline bits_t own_winning(const position_t *p) { return winning_cells(p->current, p->mask); }

static inline bits_t opponent_winning(const position_t *p) { return winning_cells(p->current ^ p->mask, p->mask); }

static inline void play_bit(position_t *p, bits_t move) {
    p->current ^= p->mask;
    p->mask |= move;
    p->moves++;
}

/* Counted with shifts and masks: as fast here as the compiler's builtin (a library call without a
 * processor flag), and plain C for any compiler. */
static inline int popcount(bits_t b) {
    b = b - ((b >> 1) & 0x5555555555555555ULL);
    b = (b & 0x3333333333333333ULL) + ((b >> 2) & 0x3333333333333333ULL);
    b = (b + (b >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((b * 0x0101010101010101ULL) >> 56);
}

#if defined(__GNUC__) || defined(__clang__)
static inline int lowest_bit_index(bits_t b) { return __builtin_ctzll(b); }
#else /* any other C11 compiler */
static inline int lowest_bit_index(bits_t b) {
    int i = 0;
    for (; !(b & 1); b >>= 1) i++;
    return i;
}
#endif

static inline int win_now_score(const position_t *p) { return (CELLS + 1 - p->moves) / 2; }

static inline int lose_next_score(const position_t *p) { return -(CELLS - p->moves) / 2; }

/* ---- transposition table of 2^b slots. A key (KEY_BITS bits) is first mixed by a bijection of
 * KEY_BITS-bit numbers (times an odd constant, modulo 2^KEY_BITS); the mixed key's top b bits pick
 * the slot and its low bits are the check. While the check keeps the low KEY_BITS - b bits, (slot,
 * check) is the whole mixed key, so no stored bound is ever read for another position; and the slot
 * costs a multiplication, where a prime-sized table's modulo costs a division at every probe. Key
 * and value share one slot: one cache miss a probe. */

#define KEY_BITS (WIDTH * H1)
#define KEY_MASK (((1ULL << (KEY_BITS - 1)) * 2) - 1) /* written so that 64 bits wraps, not overflows */
#define KEY_MIX 0x9E3779B97F4A7C15ULL                 /* odd: multiplying by it is a bijection */
#if KEY_BITS <= 32 + 17
typedef uint32_t check_t;
#define CHECK_BITS 32
#else
typedef uint64_t check_t;
#define CHECK_BITS 64
#endif

typedef struct {
    check_t check;
    uint8_t value; /* 0 empty; up to LOWER_OFFSET - 1 an upper bound; from LOWER_OFFSET on a lower bound */
} entry_t;

#define UPPER_OFFSET (1 - MIN_SCORE)
#define LOWER_OFFSET (MAX_SCORE - 2 * MIN_SCORE + 2)

/* Where the enhanced transposition cut-off stops: ten empty cells before the end. */
#define ETC_BEFORE_MOVE (CELLS - 10)

/* How often the clock is read: every CLOCK_INTERVAL nodes, a few hundred microseconds of search. */
#define CLOCK_INTERVAL 1024

typedef struct cx_solver {
    entry_t *table;
    int slot_shift;       /* KEY_BITS - b: the mixed key's bits below the slot's */
    uint64_t nodes;
    uint64_t next_check;  /* the node count at which the limit is looked at next */
    uint64_t node_cap;    /* stop when the count reaches it */
    double stop_at;       /* monotonic seconds */
    int stopped;          /* the limit came: every frame returns at once and stores nothing */
    atomic_int stop_requested; /* set by cx_solver_stop from another thread */
} cx_solver;

static inline uint64_t mixed_key(bits_t key) { return (key * KEY_MIX) & KEY_MASK; }

static inline void tt_put(cx_solver *s, bits_t key, int value) {
    uint64_t mixed = mixed_key(key);
    entry_t *e = &s->table[mixed >> s->slot_shift];
    e->check = (check_t)mixed;
    e->value = (uint8_t)value;
}

static inline int tt_get(const cx_solver *s, bits_t key) {
    uint64_t mixed = mixed_key(key);
    const entry_t *e = &s->table[mixed >> s->slot_shift];
    return e->check == (check_t)mixed ? e->value : 0;
}

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* A solver with a table of 2^log2_entries slots (8 bytes each, 16 above 49 key bits), or NULL when the
 * memory cannot be had. The size is raised where the check could not hold the bits below the slot's,
 * and lowered to one slot a key on the smallest boards. */
cx_solver *cx_solver_new(int log2_entries) {
    if (KEY_BITS > CHECK_BITS && log2_entries < KEY_BITS - CHECK_BITS) log2_entries = KEY_BITS - CHECK_BITS;
    if (log2_entries > KEY_BITS) log2_entries = KEY_BITS;
    cx_solver *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->slot_shift = KEY_BITS - log2_entries;
    s->table = calloc((size_t)1 << log2_entries, sizeof *s->table); /* zero pages, touched as the table fills */
    if (!s->table) {
        free(s);
        return NULL;
    }
    atomic_init(&s->stop_requested, 0);
    return s;
}

void cx_solver_free(cx_solver *s) {
    if (!s) return;
    free(s->table);
    free(s);
}

/* Make the search under way on `s` (in another thread) return now with what it has proven, and every
 * search after it until cx_solver_resume: a stop that comes just before a search starts still stops it. */
void cx_solver_stop(cx_solver *s) { atomic_store(&s->stop_requested, 1); }

void cx_solver_resume(cx_solver *s) { atomic_store(&s->stop_requested, 0); }

/* Called every CLOCK_INTERVAL nodes, and at the node cap exactly. */
static void check_limit(cx_solver *s) {
    if (s->nodes >= s->node_cap || atomic_load_explicit(&s->stop_requested, memory_order_relaxed)
        || now_seconds() >= s->stop_at) {
        s->stopped = 1;
        return;
    }
    s->next_check = s->nodes + CLOCK_INTERVAL < s->node_cap ? s->nodes + CLOCK_INTERVAL : s->node_cap;
}

/* ---- search ---- */

/* Whether `stones` hold four in a row (a finished game). */
static int has_four(bits_t stones) {
    static const int shifts[4] = {1, H1, H1 - 1, H1 + 1};
    for (int i = 0; i < 4; i++) {
        bits_t pairs = stones & (stones >> shifts[i]);
        if (pairs & (pairs >> 2 * shifts[i])) return 1;
    }
    return 0;
}

/* The moves to search, best first: `moves` hold the move bits and `threats` the winning cells the
 * mover owns after each (the threats its opponent faces in the child). Ordered by how many
 * winning cells a move creates, ties to the column nearer the centre. Returns how many. */
static int sorted_moves(const position_t *p, bits_t next, bits_t *moves, bits_t *threats) {
    int scores[WIDTH];
    int n = 0;
    for (int i = WIDTH - 1; i >= 0; i--) {
        bits_t m = next & column_bits(centre_column(i));
        if (!m) continue;
        bits_t w = winning_cells(p->current | m, p->mask | m);
        int score = popcount(w);
        int j = n++;
        for (; j > 0 && scores[j - 1] > score; j--) {
            moves[j] = moves[j - 1];
            threats[j] = threats[j - 1];
            scores[j] = scores[j - 1];
        }
        moves[j] = m;
        threats[j] = w;
        scores[j] = score;
    }
    /* ascending by score: reverse into best-first order */
    for (int i = 0, j = n - 1; i < j; i++, j--) {
        bits_t m = moves[i], w = threats[i];
        moves[i] = moves[j];
        threats[i] = threats[j];
        moves[j] = m;
        threats[j] = w;
    }
    return n;
}

/* The moves that do not hand the opponent a win next ply, given `threats`, the opponent's winning
 * cells (0 when every move loses). Assumes the side to move cannot win at once. */
static inline bits_t non_losing_moves(const position_t *p, bits_t threats) {
    bits_t moves = possible(p);
    bits_t forced = moves & threats;
    if (forced) {
        if (forced & (forced - 1)) return 0; /* more than one forced move: we lose */
        moves = forced;
    }
    return moves & ~(threats >> 1); /* never play under an opponent's winning cell */
}

/* Fail-soft negamax: a result <= alpha is an upper bound, >= beta a lower bound, between them exact.
 * `threats` are the opponent's winning cells (its parent computed them while ordering its moves);
 * the side to move cannot win at once. Once s->stopped is set every frame returns at once, storing
 * nothing, and the value returned means nothing. */
static int negamax(cx_solver *s, const position_t *p, int alpha, int beta, bits_t threats) {
    if (++s->nodes >= s->next_check) check_limit(s);
    if (s->stopped) return 0;
    bits_t next = non_losing_moves(p, threats);
    if (next == 0) return lose_next_score(p);
    if (p->moves >= CELLS - 2) return 0;

    int lo = -(CELLS - 2 - p->moves) / 2;
    if (alpha < lo) {
        alpha = lo;
        if (alpha >= beta) return alpha;
    }
    int hi = (CELLS - 1 - p->moves) / 2;
    /* Near 0 the window can close without a search: a side with no window of four left free of the
     * other's stones can never win, so the mover scores at most a draw, or at least one. */
    if (beta > 0 && !has_four(BOARD_MASK & ~(p->current ^ p->mask))) {
        hi = 0;
        if (alpha >= hi) return hi;
    }
    if (alpha < 0 && !has_four(BOARD_MASK & ~p->current)) {
        lo = 0;
        alpha = 0;
        if (alpha >= beta) return alpha;
    }
    bits_t key = p->current + p->mask;
    int stored = tt_get(s, key);
    if (stored) {
        if (stored >= LOWER_OFFSET) {
            lo = stored - LOWER_OFFSET;
            if (alpha < lo) {
                alpha = lo;
                if (alpha >= beta) return alpha;
            }
        } else if (stored - UPPER_OFFSET < hi) {
            hi = stored - UPPER_OFFSET;
        }
    }
    if (beta > hi) {
        beta = hi;
        if (alpha >= beta) return beta;
    }

    /* Enhanced transposition cut-off: a child whose stored upper bound already proves this node's
     * lower bound (-upper) is found by one probe a move, before the moves are ordered or searched
     * (and the probe brings each child's slot into the cache for its own search). Not in the last
     * plies, whose subtrees cost less than the probes. */
    if (p->moves < ETC_BEFORE_MOVE) {
        for (bits_t rest = next; rest; rest &= rest - 1) {
            bits_t move = rest & -rest; /* one move: `next` holds one cell a column */
            int child_stored = tt_get(s, (p->current ^ p->mask) + (p->mask | move));
            if (child_stored && child_stored < LOWER_OFFSET && UPPER_OFFSET - child_stored > alpha) {
                alpha = UPPER_OFFSET - child_stored;
                if (alpha >= beta) return alpha;
            }
        }
    }
    bits_t moves[WIDTH], child_threats[WIDTH];
    int n = sorted_moves(p, next, moves, child_threats);
    for (int i = 0; i < n; i++) {
        position_t child = *p;
        play_bit(&child, moves[i]);
        int score = -negamax(s, &child, -beta, -alpha, child_threats[i]);
        if (s->stopped) return 0;
        if (score >= beta) {
            tt_put(s, key, score + LOWER_OFFSET);
            return score;
        }
        if (score > alpha) alpha = score;
    }
    tt_put(s, key, alpha + UPPER_OFFSET);
    return alpha;
}

/* What a root search proved: the score against the null window (lower bound if > med, else upper
 * bound), and the column whose move proved a lower bound. */
typedef struct {
    int score;
    int column;
} root_t;

static inline int column_of(bits_t move) {
    return lowest_bit_index(move) / H1;
}

/* One null-window test at the root, "is the score above med?", with the move that proves it if it is.
 * The root is searched move by move (no table cut-off) so a lower bound always comes with its move.
 * The position has a non-losing move, and the side to move cannot win at once. */
static root_t root_test(cx_solver *s, const position_t *p, int med, bits_t next) {
    bits_t moves[WIDTH], child_threats[WIDTH];
    int n = sorted_moves(p, next, moves, child_threats);
    root_t best = {-(CELLS), -1};
    for (int i = 0; i < n; i++) {
        position_t child = *p;
        play_bit(&child, moves[i]);
        int score = child.moves == CELLS ? 0 : -negamax(s, &child, -(med + 1), -med, child_threats[i]);
        if (s->stopped) return best;
        if (score > best.score) {
            best.score = score;
            if (score > med) best.column = column_of(moves[i]);
        }
        if (score > med) return best;
    }
    return best;
}

/* Whether playing `col` scores at least `target` for the side to move (limit permitting: check
 * s->stopped). */
static int move_reaches(cx_solver *s, const position_t *p, int col, int target) {
    bits_t move = (p->mask + (1ULL << (col * H1))) & column_bits(col);
    if (own_winning(p) & move) return win_now_score(p) >= target;
    position_t child = *p;
    play_bit(&child, move);
    if (child.moves == CELLS) return 0 >= target;
    if (own_winning(&child) & possible(&child)) return -win_now_score(&child) >= target;
    bits_t threats = winning_cells(p->current | move, child.mask);
    return -negamax(s, &child, -target, -target + 1, threats) >= target;
}


/* What the caller already knows of the score, and when to stop. */
typedef struct {
    int lower, upper;    /* the score is known to lie in [lower, upper] (clipped to the possible scores) */
    double seconds;      /* stop after this many seconds (HUGE_VAL: no deadline) */
    uint64_t nodes;      /* stop after this many nodes (UINT64_MAX: no cap) */
    int centre_first;    /* once the score is exact, name the best column nearest the centre */
} cx_request;

/* What was proven by the time the search ended. */
typedef struct {
    int lower, upper;    /* the score lies in [lower, upper]; equal when exact */
    int column;          /* the best column found (0-based): one proven to reach `lower` when a search
                            proved it, else the most promising non-losing one; -1 on a full board */
    uint64_t nodes;      /* positions entered */
} cx_result;

#define CX_COMPLETE 0
#define CX_STOPPED 1
#define CX_INVALID_POSITION (-1)
#define CX_BOUNDS_WRONG (-2)

/* Search the position (`current`, `mask`: the bit layout above, from the side to move) within the
 * request's limit. Returns CX_COMPLETE (exact, and with centre_first the column too), CX_STOPPED (the
 * limit came first: `result` holds what was proven), CX_INVALID_POSITION (stones that do not stack
 * from the bottom, a side already with four, a full board) or CX_BOUNDS_WRONG (the known lower
 * bound was not one: no column reaches it). */
int cx_search(cx_solver *s, uint64_t current, uint64_t mask, const cx_request *request, cx_result *result) {
    position_t p = {current, mask, popcount(mask)};
    result->column = -1;
    result->nodes = 0;
    if ((mask & ~BOARD_MASK) || (current & ~mask) || ((mask + BOTTOM_MASK) & mask) || p.moves == CELLS
        || popcount(current) != p.moves / 2 || has_four(current) || has_four(current ^ mask))
        return CX_INVALID_POSITION;

    s->nodes = 0;
    s->stopped = 0;
    s->node_cap = request->nodes;
    s->stop_at = request->seconds == HUGE_VAL ? HUGE_VAL : now_seconds() + request->seconds;
    s->next_check = 0; /* look at the limit before the first node */
    int limited = request->seconds != HUGE_VAL || request->nodes != UINT64_MAX;

    int lo = lose_next_score(&p), hi = win_now_score(&p);
    int known_lower = request->lower > lo ? request->lower : lo;
    if (request->upper < hi) hi = request->upper;
    if (known_lower > hi || request->upper < lo) return CX_BOUNDS_WRONG;

    bits_t wins = own_winning(&p) & possible(&p);
    bits_t threats = opponent_winning(&p);
    bits_t next = non_losing_moves(&p, threats);
    int status = CX_COMPLETE;
    if (wins || !next) {
        /* a win at once, or every move hands the opponent one: settled without a search */
        lo = hi = wins ? win_now_score(&p) : lose_next_score(&p);
        if (lo < known_lower || lo > request->upper) return CX_BOUNDS_WRONG;
        bits_t column_from = wins ? wins : possible(&p);
        for (int i = 0; i < WIDTH && result->column < 0; i++)
            if (column_from & column_bits(centre_column(i))) result->column = centre_column(i);
    } else {
        bits_t moves[WIDTH], ignored[WIDTH];
        sorted_moves(&p, next, moves, ignored);
        result->column = column_of(moves[0]);
        if (hi > (CELLS - 1 - p.moves) / 2) hi = (CELLS - 1 - p.moves) / 2; /* it cannot win at once */
        /* A known lower bound is usually the exact score (a parent's best reply), so test it first. */
        int probe_lower = known_lower > lo && known_lower < hi;
        if (known_lower > lo) lo = known_lower;
        while (lo < hi) {
            int med = lo + (hi - lo) / 2;
            if (probe_lower)
                med = lo;
            else if (limited && lo <= 0 && 0 < hi)
                med = 0; /* under a limit, the outcome first: is it a win? */
            else if (limited && lo < 0 && 0 <= hi)
                med = -1; /* then: at least a draw? */
            else if (med <= 0 && lo / 2 < med)
                med = lo / 2;
            else if (med >= 0 && hi / 2 > med)
                med = hi / 2;
            probe_lower = 0;
            root_t r = root_test(s, &p, med, next);
            if (s->stopped) break;
            if (r.score <= med) {
                hi = r.score;
            } else {
                lo = r.score;
                result->column = r.column;
            }
        }
        if (lo > hi) return CX_BOUNDS_WRONG; /* a lower bound the caller claimed was not one */
    }
    if (s->stopped) {
        status = CX_STOPPED;
    } else if (request->centre_first && lo == hi && !wins && next) {
        int found = -1;
        for (int i = 0; i < WIDTH && found < 0 && !s->stopped; i++) {
            int col = centre_column(i);
            if ((possible(&p) & column_bits(col)) && move_reaches(s, &p, col, lo) && !s->stopped) found = col;
        }
        if (s->stopped)
            status = CX_STOPPED;
        else if (found < 0)
            return CX_BOUNDS_WRONG; /* no column reaches the score: the known lower bound was wrong */
        else
            result->column = found;
    }
    result->lower = lo;
    result->upper = hi;
    result->nodes = s->nodes;
    return status;
}
