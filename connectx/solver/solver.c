/*
 * Exact connect-4 solver for the opening book and for the analysis of games (the agent stays
 * pure Python). It plays 7x6 unless built for another board of four in a row (see WIDTH below).
 *
 * Pascal Pons' design, written from his description: a position is two bitboards seen from the
 * side to move (`current`, `mask`), H = HEIGHT + 1 bits per column with a sentinel on top (7x6):
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
 * winning cells they create (centre first on ties), and null-window iterative narrowing.
 *
 * It is a shared library called through ctypes (connectx/solver/native.py): the analysis keeps one
 * loaded copy per worker process (connectx/solver/worker.py), the book's tools one per process, so
 * the transposition table stays warm across the thousands of related positions a process solves,
 * with no text protocol to parse.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The board: 7x6 unless built with -DWIDTH=... -DHEIGHT=... (connectx/solver/build.py does, one library a
 * board); a board's bitboard needs WIDTH * (HEIGHT + 1) bits, and column digits go up to 9. */
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

static inline bits_t top_bit(int col) { return 1ULL << (HEIGHT - 1 + col * H1); }
static inline bits_t bottom_bit(int col) { return 1ULL << (col * H1); }
static inline bits_t column_bits(int col) { return ((1ULL << HEIGHT) - 1) << (col * H1); }

typedef struct {
    bits_t current;
    bits_t mask;
    int moves;
} position_t;

/* Columns from the centre outwards, the left one first at each distance: 3 2 4 1 5 0 6 on 7x6
 * (filled in by book_init). */
static int CENTRE_ORDER[WIDTH];

/* Empty cells that would complete four for `stones` (playable now or later). */
static bits_t winning_cells(bits_t stones, bits_t mask) {
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

static inline bits_t opponent_winning(const position_t *p) {
    return winning_cells(p->current ^ p->mask, p->mask);
}

static inline int can_win_next(const position_t *p) { return (own_winning(p) & possible(p)) != 0; }

static inline void play_bit(position_t *p, bits_t move) {
    p->current ^= p->mask;
    p->mask |= move;
    p->moves++;
}

static inline bits_t move_bit(const position_t *p, int col) {
    return (p->mask + bottom_bit(col)) & column_bits(col);
}

/* Moves that do not give the opponent a win on the next ply (0 when every move loses).
 * Assumes the side to move cannot win at once. */
static bits_t non_losing_moves(const position_t *p) {
    bits_t moves = possible(p);
    bits_t threats = opponent_winning(p);
    bits_t forced = moves & threats;
    if (forced) {
        if (forced & (forced - 1)) return 0;
        moves = forced;
    }
    return moves & ~(threats >> 1);
}

static int popcount(bits_t b) { return __builtin_popcountll(b); }

/* Ordering heuristic: how many winning cells the side to move owns after playing `move`. */
static int move_score(const position_t *p, bits_t move) {
    return popcount(winning_cells(p->current | move, p->mask));
}

static inline bits_t position_key(const position_t *p) { return p->current + p->mask; }

/* ---- transposition table: key mod a prime as index, the key's low bits as check.
 * Keys are < 2^(WIDTH*H1) and the size is > 2^17, so up to 49 key bits (7x6) a 32-bit check
 * identifies a position exactly with (index, check); larger boards keep the whole key. */

#if WIDTH * H1 <= 32 + 17
typedef uint32_t check_t;
#else
typedef uint64_t check_t;
#endif

static check_t *tt_keys;
static uint8_t *tt_values;
static uint64_t tt_size;
static uint64_t node_count;

static int is_prime(uint64_t n) {
    if (n < 2) return 0;
    for (uint64_t d = 2; d * d <= n; d++)
        if (n % d == 0) return 0;
    return 1;
}

/* Values: 0 empty; 1..(MAX-MIN+1) upper bound v+MIN-1; above that lower bound. */
#define UPPER_OFFSET (1 - MIN_SCORE)
#define LOWER_OFFSET (MAX_SCORE - 2 * MIN_SCORE + 2)

static void tt_put(bits_t key, int value) {
    uint64_t i = key % tt_size;
    tt_keys[i] = (check_t)key;
    tt_values[i] = (uint8_t)value;
}

static int tt_get(bits_t key) {
    uint64_t i = key % tt_size;
    return tt_keys[i] == (check_t)key ? tt_values[i] : 0;
}

/* Allocate the table with about 2^log2_entries slots (5 bytes each, 9 above 49 key bits) and
 * set the move order; returns 0 on failure. */
int book_init(int log2_entries) {
    for (int i = 0; i < WIDTH; i++) CENTRE_ORDER[i] = WIDTH / 2 + (i % 2 ? -(i + 1) / 2 : i / 2);
    free(tt_keys);
    free(tt_values);
    tt_size = (1ULL << log2_entries) + 1;
    while (!is_prime(tt_size)) tt_size++;
    tt_keys = calloc(tt_size, sizeof *tt_keys);
    tt_values = calloc(tt_size, sizeof *tt_values);
    return tt_keys && tt_values;
}

/* ---- search ---- */

static int negamax(const position_t *p, int alpha, int beta) {
    node_count++;
    bits_t next = non_losing_moves(p);
    if (next == 0) return -(CELLS - p->moves) / 2;
    if (p->moves >= CELLS - 2) return 0;

    int lo = -(CELLS - 2 - p->moves) / 2;
    if (alpha < lo) {
        alpha = lo;
        if (alpha >= beta) return alpha;
    }
    int hi = (CELLS - 1 - p->moves) / 2;
    bits_t key = position_key(p);
    int stored = tt_get(key);
    if (stored) {
        if (stored > MAX_SCORE - MIN_SCORE + 1) {
            lo = stored - LOWER_OFFSET;
            if (alpha < lo) {
                alpha = lo;
                if (alpha >= beta) return alpha;
            }
        } else {
            hi = stored - UPPER_OFFSET;
        }
    }
    if (beta > hi) {
        beta = hi;
        if (alpha >= beta) return beta;
    }

    /* insertion sort by heuristic, stable on the centre-first order */
    bits_t moves[WIDTH];
    int scores[WIDTH];
    int n = 0;
    for (int i = WIDTH - 1; i >= 0; i--) {
        bits_t m = next & column_bits(CENTRE_ORDER[i]);
        if (!m) continue;
        int s = move_score(p, m);
        int j = n++;
        for (; j > 0 && scores[j - 1] > s; j--) {
            moves[j] = moves[j - 1];
            scores[j] = scores[j - 1];
        }
        moves[j] = m;
        scores[j] = s;
    }
    for (int i = n - 1; i >= 0; i--) {
        position_t child = *p;
        play_bit(&child, moves[i]);
        int score = -negamax(&child, -beta, -alpha);
        if (score >= beta) {
            tt_put(key, score + LOWER_OFFSET);
            return score;
        }
        if (score > alpha) alpha = score;
    }
    tt_put(key, alpha + UPPER_OFFSET);
    return alpha;
}

/* Exact score of a position whose score is known to be >= floor_hint. */
static int solve(const position_t *p, int floor_hint) {
    if (can_win_next(p)) return (CELLS + 1 - p->moves) / 2;
    int lo = -(CELLS - p->moves) / 2;
    int hi = (CELLS + 1 - p->moves) / 2;
    /* A floor is usually the exact score (the opponent replied best), so test it first: one
     * null-window search then settles the position. */
    int probe_floor = floor_hint >= lo && floor_hint < hi;
    if (floor_hint > lo) lo = floor_hint;
    while (lo < hi) {
        int med = lo + (hi - lo) / 2;
        if (probe_floor)
            med = lo;
        else if (med <= 0 && lo / 2 < med)
            med = lo / 2;
        else if (med >= 0 && hi / 2 > med)
            med = hi / 2;
        probe_floor = 0;
        int r = negamax(p, med, med + 1);
        if (r <= med)
            hi = r;
        else
            lo = r;
    }
    return lo;
}

/* Whether `stones` hold four in a row (a finished game). */
static int has_four(bits_t stones) {
    static const int shifts[4] = {1, H1, H1 - 1, H1 + 1};
    for (int i = 0; i < 4; i++) {
        bits_t pairs = stones & (stones >> shifts[i]);
        if (pairs & (pairs >> 2 * shifts[i])) return 1;
    }
    return 0;
}

/* Whether playing `col` (playable) scores at least `target` for the side to move. */
static int move_reaches(const position_t *p, int col, int target) {
    bits_t move = move_bit(p, col);
    if (own_winning(p) & move) return (CELLS + 1 - p->moves) / 2 >= target;
    position_t child = *p;
    play_bit(&child, move);
    if (child.moves == CELLS) return 0 >= target;
    if (can_win_next(&child)) return -(CELLS + 1 - child.moves) / 2 >= target;
    return -negamax(&child, -target, -target + 1) >= target;
}

/* Play a string of 1-based column digits; returns 0 if a move is illegal or a game already ended. */
static int parse_moves(const char *moves, position_t *p) {
    memset(p, 0, sizeof *p);
    for (const char *c = moves; *c; c++) {
        int col = *c - '1';
        if (col < 0 || col >= WIDTH || (p->mask & top_bit(col))) return 0;
        bits_t move = move_bit(p, col);
        if (own_winning(p) & move) return 0;
        play_bit(p, move);
    }
    return 1;
}

#define INVALID_POSITION (-1000)
#define FLOOR_TOO_HIGH (-1001)

/* Exact score of the position `moves` for the side to move, INVALID_POSITION if it is not legal
 * or already over. */
int book_solve(const char *moves, int floor_hint) {
    position_t p;
    if (!parse_moves(moves, &p) || p.moves == CELLS) return INVALID_POSITION;
    return solve(&p, floor_hint);
}

/* Exact score and best move (0-based column in *best_column): the highest score, and among
 * equal scores the column nearest the centre. */
static int best_move_of(const position_t *p, int floor_hint, int *best_column) {
    int score = solve(p, floor_hint);
    for (int i = 0; i < WIDTH; i++) {
        int col = CENTRE_ORDER[i];
        if (p->mask & top_bit(col)) continue;
        if (move_reaches(p, col, score)) {
            *best_column = col;
            return score;
        }
    }
    return FLOOR_TOO_HIGH; /* the caller's floor was not a true lower bound */
}

int book_best_move(const char *moves, int floor_hint, int *best_column) {
    position_t p;
    *best_column = -1;
    if (!parse_moves(moves, &p) || p.moves == CELLS) return INVALID_POSITION;
    return best_move_of(&p, floor_hint, best_column);
}

/* The same for a position given as bitboards (the layout above), as the agents' core holds it:
 * a game's positions need no move history. INVALID_POSITION if the stones do not stack from the
 * bottom, a side already has four, or the board is full. */
int book_best_move_bits(uint64_t current, uint64_t mask, int floor_hint, int *best_column) {
    position_t p = {current, mask, popcount(mask)};
    *best_column = -1;
    if ((mask & ~BOARD_MASK) || (current & ~mask) || ((mask + BOTTOM_MASK) & mask) || p.moves == CELLS
        || popcount(current) != p.moves / 2
        || has_four(current) || has_four(current ^ mask)) return INVALID_POSITION;
    return best_move_of(&p, floor_hint, best_column);
}

uint64_t book_node_count(void) { return node_count; }

void book_reset_node_count(void) { node_count = 0; }
