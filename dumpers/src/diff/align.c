/* align.c - the lines of a replaced block paired by likeness
 * (tk_diff_align(), tk_diff.h).
 *
 * A diff says which lines of A became which lines of B only where they
 * are equal; a replace hunk of k removed and m added lines says nothing of
 * which removed line became which added one.  Showing them side by side
 * by position faces unrelated lines (a `tt.load` with a `ttg.local_alloc`
 * three lines below the load it was made from).  Here each line is cut
 * into words, the likeness of two lines is the Dice coefficient of their
 * word multisets, and the pairs are the in-order matching with the
 * largest total likeness among pairs alike enough (an LCS-style dynamic
 * program over the k x m block), as difflib's "fancy replace" and Meld do
 * in spirit.  Words lose their digits' values (`%45` and `%47`, `#loc3`
 * and `#loc9` are alike): a pass renumbers values without changing what a
 * line does.
 *
 * Bounded: a block of more than DIFF_ALIGN_MAX_CELLS pairs, or past the
 * diff's total budget of lines read and pairs scored, keeps its hunk as
 * it is (paired by position, as before this file). */
#include <glib.h>
#include <string.h>

#include "diff/internal.h"
#include "util/memo.h"

/* Pairs scored in one block at most (a 512 x 512 block). */
#define DIFF_ALIGN_MAX_CELLS (1u << 18)
/* Over all blocks of one diff: pairs scored and lines read. */
#define DIFF_ALIGN_MAX_TOTAL_CELLS (1u << 22)
#define DIFF_ALIGN_MAX_TOTAL_LINES (1u << 16)
/* Bytes of a line's start that its words are taken from. */
#define DIFF_ALIGN_HEAD 512u
/* Two lines less alike than this are not paired (Dice, in 1/1000). */
#define DIFF_ALIGN_MIN_LIKE 500u

/* The words of one line: sorted hashes, in WORDS from FIRST, N of them. */
typedef struct {
    uint32_t first, n;
    uint64_t whole; /* hash of the line's text without blanks: lines with no
                       word compare by it */
} line_words;

/* Bytes of a word: ASCII letters and digits, '_', '.', '$' (a load per
 * byte: the cut reads every line of every replaced block), and every
 * byte of a UTF-8 sequence (0x80 on).  Digits are WORD_DIGIT. */
enum { WORD_LETTER = 1, WORD_DIGIT = 2 };
#define WORD_ROW16 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1
static const unsigned char WORD_BYTE[256] = {
    ['0'] = 2, ['1'] = 2, ['2'] = 2, ['3'] = 2, ['4'] = 2, ['5'] = 2, ['6'] = 2, ['7'] = 2,
    ['8'] = 2, ['9'] = 2, ['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1,
    ['G'] = 1, ['H'] = 1, ['I'] = 1, ['J'] = 1, ['K'] = 1, ['L'] = 1, ['M'] = 1, ['N'] = 1,
    ['O'] = 1, ['P'] = 1, ['Q'] = 1, ['R'] = 1, ['S'] = 1, ['T'] = 1, ['U'] = 1, ['V'] = 1,
    ['W'] = 1, ['X'] = 1, ['Y'] = 1, ['Z'] = 1, ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1,
    ['e'] = 1, ['f'] = 1, ['g'] = 1, ['h'] = 1, ['i'] = 1, ['j'] = 1, ['k'] = 1, ['l'] = 1,
    ['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1, ['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1,
    ['u'] = 1, ['v'] = 1, ['w'] = 1, ['x'] = 1, ['y'] = 1, ['z'] = 1, ['_'] = 1, ['.'] = 1,
    ['$'] = 1,
    [0x80] = WORD_ROW16, WORD_ROW16, WORD_ROW16, WORD_ROW16,
    WORD_ROW16, WORD_ROW16, WORD_ROW16, WORD_ROW16,
};
#undef WORD_ROW16

/* Sorts W (N): a line has a few dozen words, where inserting beats qsort's
 * calls, and at most DIFF_ALIGN_HEAD / 2 (an LLVM call's arguments, a
 * metadata list), where Shell's gaps (Ciura's) do with no call either
 * (qsort was 2% of a report's instructions). */
static void sort_words(uint64_t *w, uint32_t n)
{
    static const uint32_t gaps[] = {701, 301, 132, 57, 23, 10, 4, 1};
    for (size_t g = n > 64 ? 0 : G_N_ELEMENTS(gaps) - 1; g < G_N_ELEMENTS(gaps); g++) {
        uint32_t gap = gaps[g];
        for (uint32_t i = gap; i < n; i++) {
            uint64_t v = w[i];
            uint32_t j = i;
            for (; j >= gap && w[j - gap] > v; j -= gap)
                w[j] = w[j - gap];
            w[j] = v;
        }
    }
}

/* The hash of TEXT (LEN) without blanks, digits' runs as one '0': what
 * a line with no word (cut_words()) compares by. */
static uint64_t whole_hash(const char *text, size_t len)
{
    uint64_t whole = 1469598103934665603ull;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        if (WORD_BYTE[c] == WORD_DIGIT) {
            /* a run of digits is one '0', as in a word */
            while (i + 1 < len && WORD_BYTE[(unsigned char)text[i + 1]] == WORD_DIGIT)
                i++;
            c = '0';
        } else if (c == ' ' || c == '\t')
            continue;
        whole = (whole ^ c) * 1099511628211ull;
    }
    return whole;
}

/* Cuts TEXT into words and appends their hashes (sorted) to WORDS.  The
 * hash of the whole line is made only for a line with no word: the only
 * one that compares by it. */
static line_words cut_words(const char *text, size_t len, GArray *words)
{
    line_words lw = {.first = words->len};
    size_t i = 0;
    if (len > DIFF_ALIGN_HEAD)
        len = DIFF_ALIGN_HEAD;
    /* at most a word per two bytes: room for all at once */
    g_array_set_size(words, lw.first + (guint)(len / 2 + 1));
    uint64_t *out = (uint64_t *)(void *)words->data + lw.first;
    uint32_t n = 0;
    while (i < len) {
        if (!WORD_BYTE[(unsigned char)text[i]]) {
            i++;
            continue;
        }
        uint64_t h = 1469598103934665603ull;
        int letters = 0;
        unsigned char k;
        while (i < len && (k = WORD_BYTE[(unsigned char)text[i]]) != 0) {
            unsigned char w = (unsigned char)text[i];
            if (k == WORD_DIGIT) {
                /* a run of digits is one '0': values and locations are
                 * renumbered by passes that change nothing else */
                while (i + 1 < len && WORD_BYTE[(unsigned char)text[i + 1]] == WORD_DIGIT)
                    i++;
                w = '0';
            } else
                letters = 1;
            h = (h ^ w) * 1099511628211ull;
            i++;
        }
        if (letters) /* a bare number says nothing of what a line does */
            out[n++] = h;
    }
    g_array_set_size(words, lw.first + n);
    lw.n = n;
    lw.whole = n ? 0 : whole_hash(text, len);
    sort_words(out, n);
    return lw;
}

/* ---- the words of lines seen before ---------------------------------------
 * A line's words are a function of its first DIFF_ALIGN_HEAD bytes, and the
 * same lines come back: a comparison's diff after each pass replaces the
 * same lines again (autotuned_matmul's report aligns 290,000 lines, cutting
 * and sorting their words was 1.1 G of its 15 G instructions), and so does
 * a chain's next pass.  Cut lines are kept here, keyed by their bytes
 * (compared whole on a hit), shared by the diff threads under a lock, up
 * to MEMO_BYTES, then forgotten all at once.  A hit gives the words the
 * cut would: the pairing is the same. */
#define MEMO_BYTES ((size_t)16 << 20)

typedef struct {
    uint64_t hash;
    const char *text; /* the key's bytes: the entry's own after WORDS */
    uint32_t len, n;
    uint64_t whole;
    uint64_t words[]; /* N, sorted; then LEN bytes */
} memo_line;

static guint memo_hash(gconstpointer p)
{
    const memo_line *m = p;
    return (guint)(m->hash ^ (m->hash >> 32));
}

static gboolean memo_equal(gconstpointer x, gconstpointer y)
{
    const memo_line *a = x, *b = y;
    return a->hash == b->hash && a->len == b->len && memcmp(a->text, b->text, a->len) == 0;
}

static memo_table words_seen = MEMO_TABLE_INIT(MEMO_BYTES, memo_hash, memo_equal);

typedef struct {
    GArray *words;
    line_words lw;
} words_out;

static void copy_words(gconstpointer hit, void *user)
{
    const memo_line *m = hit;
    words_out *out = user;
    out->lw = (line_words){.first = out->words->len, .n = m->n, .whole = m->whole};
    g_array_append_vals(out->words, m->words, m->n);
}

/* cut_words(), from the memo when TEXT's head was cut before. */
static line_words cut_words_seen(const char *text, size_t len, GArray *words)
{
    if (len > DIFF_ALIGN_HEAD)
        len = DIFF_ALIGN_HEAD;
    memo_line key = {.hash = tk_diff_hash(text, len), .text = text, .len = (uint32_t)len};
    words_out found = {.words = words};
    if (memo_find(&words_seen, &key, copy_words, &found))
        return found.lw;
    line_words lw = cut_words(text, len, words);
    size_t size = sizeof(memo_line) + lw.n * sizeof(uint64_t) + len;
    memo_line *m = g_malloc(size);
    *m = key;
    m->n = lw.n;
    m->whole = lw.whole;
    memcpy(m->words, (const uint64_t *)(void *)words->data + lw.first, lw.n * sizeof(uint64_t));
    memcpy(m->words + lw.n, text, len);
    m->text = (const char *)(m->words + lw.n);
    memo_keep(&words_seen, m, size);
    return lw;
}

/* Likeness of X and Y in 1/1000 (Dice of the word multisets). */
static uint32_t likeness(const uint64_t *w, const line_words *x, const line_words *y)
{
    if (x->n == 0 || y->n == 0)
        return x->n == y->n && x->whole == y->whole ? 1000u : 0u;
    const uint64_t *a = w + x->first, *b = w + y->first;
    uint32_t i = 0, j = 0, common = 0;
    while (i < x->n && j < y->n) {
        if (a[i] == b[j]) {
            common++;
            i++;
            j++;
        } else if (a[i] < b[j])
            i++;
        else
            j++;
    }
    return (uint32_t)(2000ull * common / (x->n + y->n));
}

typedef struct {
    tk_diff_text_fn text;
    void *user;
    uint64_t cells, lines; /* spent so far */
    GArray *out;           /* tk_hunk */
    GArray *words;         /* uint64_t */
} aligner;

static void push(GArray *out, tk_hunk_tag tag, uint32_t a0, uint32_t a1, uint32_t b0, uint32_t b1)
{
    if (a0 == a1 && b0 == b1)
        return;
    if (out->len > 0) {
        tk_hunk *last = &g_array_index(out, tk_hunk, out->len - 1);
        if (last->tag == tag && last->a1 == a0 && last->b1 == b0) {
            last->a1 = a1;
            last->b1 = b1;
            return;
        }
    }
    tk_hunk h = {tag, a0, a1, b0, b1};
    g_array_append_val(out, h);
}

/* The lines of A[a0, a1) and B[b0, b1) between two pairs: removed ones
 * first, as a unified diff shows them. */
static void push_gap(GArray *out, uint32_t a0, uint32_t a1, uint32_t b0, uint32_t b1)
{
    push(out, TK_HUNK_DELETE, a0, a1, b0, b0);
    push(out, TK_HUNK_INSERT, a1, a1, b0, b1);
}

/* Reads the words of the block's lines; FALSE when a line cannot be read. */
static gboolean read_block(aligner *al, const tk_hunk *h, line_words *lw)
{
    uint32_t na = h->a1 - h->a0, nb = h->b1 - h->b0;
    g_array_set_size(al->words, 0);
    for (uint32_t i = 0; i < na + nb; i++) {
        int side = i < na ? 0 : 1;
        uint32_t k = i < na ? h->a0 + i : h->b0 + (i - na);
        size_t len = 0;
        const char *t = al->text(side, k, &len, al->user);
        if (!t)
            return FALSE;
        lw[i] = cut_words_seen(t, len, al->words);
    }
    return TRUE;
}

/* Lines of one side with the same words (after digits lost their values)
 * score alike against every line: they form one class, and the likeness
 * of two classes is computed once.  IR repeats itself (a block of
 * `%N = arith.addi %N, %N : i32`), so a block has far fewer classes than
 * lines.  CLS[i] gets line I's class (I in [FIRST, FIRST + N) of LW), REP
 * each class's first line; returns the number of classes. */
static uint32_t classify(const uint64_t *w, const line_words *lw, uint32_t first, uint32_t n,
                         uint32_t *cls, uint32_t *rep)
{
    GHashTable *seen = g_hash_table_new(g_int64_hash, g_int64_equal);
    uint64_t *keys = g_new(uint64_t, n ? n : 1);
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        const line_words *x = &lw[first + i];
        uint64_t h = x->n ? 1469598103934665603ull : x->whole;
        for (uint32_t t = 0; t < x->n; t++)
            h = (h ^ w[x->first + t]) * 1099511628211ull;
        keys[i] = h;
        gpointer v;
        if (g_hash_table_lookup_extended(seen, &keys[i], NULL, &v)) {
            const line_words *y = &lw[first + rep[GPOINTER_TO_UINT(v)]];
            if (x->n == y->n && (x->n || x->whole == y->whole) &&
                memcmp(w + x->first, w + y->first, x->n * sizeof *w) == 0) {
                cls[i] = GPOINTER_TO_UINT(v);
                continue;
            }
            /* a hash shared by other words: a class of its own */
        } else {
            g_hash_table_insert(seen, &keys[i], GUINT_TO_POINTER(k));
        }
        rep[k] = i;
        cls[i] = k++;
    }
    g_hash_table_destroy(seen);
    g_free(keys);
    return k;
}

/* Likeness of X and Y, or 0 when it cannot reach DIFF_ALIGN_MIN_LIKE
 * whatever words they share (told from their counts alone). */
static uint32_t likeness_min(const uint64_t *w, const line_words *x, const line_words *y)
{
    if (x->n && y->n &&
        2000ull * MIN(x->n, y->n) < (uint64_t)DIFF_ALIGN_MIN_LIKE * (x->n + y->n))
        return 0;
    return likeness(w, x, y);
}

/* Aligns replace hunk H into AL->out. */
static void align_block(aligner *al, const tk_hunk *h)
{
    uint32_t na = h->a1 - h->a0, nb = h->b1 - h->b0;
    uint64_t cells = (uint64_t)na * nb;
    if ((na == 1 && nb == 1) || cells > DIFF_ALIGN_MAX_CELLS ||
        al->cells + cells > DIFF_ALIGN_MAX_TOTAL_CELLS ||
        al->lines + na + nb > DIFF_ALIGN_MAX_TOTAL_LINES) {
        g_array_append_val(al->out, *h);
        return;
    }
    al->cells += cells;
    al->lines += na + nb;
    line_words *lw = g_new(line_words, (size_t)na + nb);
    if (!read_block(al, h, lw)) {
        g_free(lw);
        g_array_append_val(al->out, *h);
        return;
    }
    const uint64_t *w = (const uint64_t *)al->words->data;
    uint32_t *ca = g_new(uint32_t, (size_t)na + nb), *cb = ca + na;
    uint32_t *ra = g_new(uint32_t, (size_t)na + nb), *rb = ra + na;
    uint32_t ka = classify(w, lw, 0, na, ca, ra), kb = classify(w, lw, na, nb, cb, rb);
    /* like[ca * kb + cb]: the likeness of two classes, UNSCORED until
     * asked for */
    enum { UNSCORED = 0xffff };
    uint16_t *like = g_new(uint16_t, (size_t)ka * kb);
    memset(like, 0xff, (size_t)ka * kb * sizeof *like);
#define LIKE(i, j) like[(size_t)ca[i] * kb + cb[j]]
    /* best[i][j]: the largest total likeness pairing A[i..) with B[j..);
     * filled from the end so that the walk below goes forward. */
    size_t cols = (size_t)nb + 1;
    uint64_t *best = g_new0(uint64_t, ((size_t)na + 1) * cols);
    for (uint32_t i = na; i-- > 0;)
        for (uint32_t j = nb; j-- > 0;) {
            uint16_t *sp = &LIKE(i, j);
            if (*sp == UNSCORED)
                *sp = (uint16_t)likeness_min(w, &lw[ra[ca[i]]], &lw[na + rb[cb[j]]]);
            uint32_t s = *sp;
            uint64_t v = MAX(best[(size_t)(i + 1) * cols + j], best[(size_t)i * cols + j + 1]);
            if (s >= DIFF_ALIGN_MIN_LIKE)
                v = MAX(v, best[(size_t)(i + 1) * cols + j + 1] + s);
            best[(size_t)i * cols + j] = v;
        }
    /* Walk: take a pair when it is on a best path, preferring a pair to
     * skipping (so that equally good pairings keep lines in step). */
    uint32_t i = 0, j = 0, ga = 0, gb = 0;
    while (i < na && j < nb) {
        uint32_t s = LIKE(i, j);
        uint64_t here = best[(size_t)i * cols + j];
        if (s >= DIFF_ALIGN_MIN_LIKE && here == best[(size_t)(i + 1) * cols + j + 1] + s) {
            push_gap(al->out, h->a0 + ga, h->a0 + i, h->b0 + gb, h->b0 + j);
            push(al->out, TK_HUNK_REPLACE, h->a0 + i, h->a0 + i + 1, h->b0 + j, h->b0 + j + 1);
            i++;
            j++;
            ga = i;
            gb = j;
        } else if (here == best[(size_t)(i + 1) * cols + j])
            i++;
        else
            j++;
    }
#undef LIKE
    push_gap(al->out, h->a0 + ga, h->a1, h->b0 + gb, h->b1);
    g_free(best);
    g_free(like);
    g_free(ca);
    g_free(ra);
    g_free(lw);
}

tk_hunk *tk_diff_align(const tk_hunk *hunks, size_t n, tk_diff_text_fn text, void *user,
                       size_t *out_n)
{
    aligner al = {
        .text = text,
        .user = user,
        .out = g_array_sized_new(FALSE, FALSE, sizeof(tk_hunk), (guint)n),
        .words = g_array_new(FALSE, FALSE, sizeof(uint64_t)),
    };
    for (size_t k = 0; k < n; k++) {
        if (hunks[k].tag == TK_HUNK_REPLACE && text)
            align_block(&al, &hunks[k]);
        else
            g_array_append_val(al.out, hunks[k]);
    }
    g_array_free(al.words, TRUE);
    *out_n = al.out->len;
    if (al.out->len == 0) {
        g_array_free(al.out, TRUE);
        return NULL;
    }
    return (tk_hunk *)g_array_free(al.out, FALSE);
}
