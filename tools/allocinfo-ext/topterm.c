// SPDX-License-Identifier: GPL-2.0
/*
 * topterm.c - `allocinfo-ext top` in a terminal, through ncurses: the
 * largest sites, sampled every delay seconds (topsample.c has the samples).
 *
 * Keys: b, c, s, g sort by bytes, calls, slack, growth; I reverses the
 * order (as -r does); / filters by
 * module, function, type or location, whatever the case (empty: all);
 * arrows, j, k, PgUp, PgDn, Home and End scroll; p or space pauses; r
 * samples at once; + and - double and halve the delay, d asks for one;
 * ? or h shows the keys; q quits. What / and d ask for is typed on the
 * status line while samples go on; Enter takes it, Esc cancels it. A
 * resize redraws at the new size. A sample that cannot be read is said on
 * the status line and the last good one stays.
 */
#include <curses.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "topterm.h"
#include "util.h"

/* What the terminal shows besides the sample. */
struct top_screen {
	struct top_samples s;
	char filter[128];
	char prompt;		/* '/' or 'd' while one is typed, else 0 */
	char input[64];		/* what is typed */
	char error[320];	/* the last sample's failure, or "" */
	char error_clock[16];
	size_t first;		/* the first row shown, when scrolled */
	bool paused, help;
	bool refresh;		/* r: a sample now */
};

static const char * const top_help[] = {
	"allocinfo-ext top: keys",
	"",
	"  b c s g        sort by bytes, calls, slack, growth",
	"  I              reverse the order: the smallest first, or not",
	"  /              filter: sites whose module, function, type or",
	"                 location holds the text, any case (empty: all)",
	"  Up Down j k    scroll a row",
	"  PgUp PgDn      scroll a screen",
	"  Home End       the first or the last rows",
	"  p or space     pause (no new samples) or go on",
	"  r              a sample now, paused or not",
	"  + -            double or halve the delay",
	"  d              type a delay in seconds",
	"  Enter Esc      take or cancel what / or d asks",
	"  ? h            this help; any key leaves it",
	"  q              quit",
};

/* Whether @s's module, function, type or location holds @text, any case. */
static bool top_selected(const struct site *s, const char *text)
{
	return !*text || strcasestr(s->module, text) || strcasestr(s->func, text) ||
	       strcasestr(s->type, text) || strcasestr(s->location, text);
}

static const char *top_prompt_text(char prompt)
{
	return prompt == 'd' ? "delay (seconds): " :
	       "filter (module, function, type, location): ";
}

/* @text's lines from screen line @y on, each cut to the width. */
static void top_put_lines(int y, char *text)
{
	char *line, *next;

	for (line = text; *line && y < LINES; line = next, y++) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else
			next = line + strlen(line);
		mvaddnstr(y, 0, line, COLS);
	}
}

static void top_draw_help(void)
{
	size_t i;

	erase();
	for (i = 0; i < ARRAY_SIZE(top_help) && (int)i < LINES; i++)
		mvaddnstr(i, 0, top_help[i], COLS);
	refresh();
}

/* The status line: the prompt open, or pause, filter, a failed sample. */
static void top_status(FILE *f, const struct top_screen *sc)
{
	if (sc->prompt) {
		fprintf(f, "%s%s\n", top_prompt_text(sc->prompt), sc->input);
		return;
	}
	fprintf(f, "%s%s%s%s", sc->paused ? "[paused] " : "",
		*sc->filter ? "filter: " : "", sc->filter,
		*sc->filter ? "  " : "");
	if (*sc->error)
		fprintf(f, "sample failed at %s: %s\n", sc->error_clock,
			sc->error);
	else
		fputs("? for help\n", f);
}

/*
 * The screen: title and totals, a status line (filter, pause, a failed
 * sample, the help key), the column heads, and the rows that fit.
 */
static void top_draw(struct top_screen *sc, struct top_opts *o)
{
	struct top_row *rows, *sel;
	char *buf = NULL, clock[16];
	size_t len, n, m = 0, i, fit;
	FILE *f;

	if (sc->help) {
		top_draw_help();
		return;
	}
	n = top_sorted_rows(&sc->s, o, &rows);
	sel = xcalloc(n, sizeof(*sel));
	for (i = 0; i < n; i++) {
		if (top_selected(rows[i].site, sc->filter))
			sel[m++] = rows[i];
	}
	fit = LINES > 4 ? LINES - 4 : 0;
	if (sc->first + fit > m)
		sc->first = m > fit ? m - fit : 0;
	top_clock(clock, sizeof(clock), false);
	o->view.clock = clock;
	o->view.lines = o->lines > 0 && (size_t)o->lines < fit ? o->lines : (long)fit;
	o->view.width = COLS;
	f = open_memstream(&buf, &len);
	if (!f) {
		endwin();
		fputs(AIE_TOOL_NAME ": out of memory\n", stderr);
		exit(AIE_EXIT_FAIL);
	}
	top_render_head(f, &sc->s.cur, sel, m, &o->view);
	top_status(f, sc);
	top_render_columns(f);
	if (fit)
		top_render_rows(f, &sc->s.cur, sel + sc->first, m - sc->first,
				&o->view);
	fclose(f);
	erase();
	top_put_lines(0, buf);
	if (sc->prompt) {
		len = strlen(top_prompt_text(sc->prompt)) + strlen(sc->input);
		move(2, len < (size_t)COLS ? (int)len : COLS - 1);
	}
	curs_set(!!sc->prompt);
	refresh();
	free(buf);
	free(sel);
	free(rows);
}

/* Take a sample; on failure keep the last one and say why. */
static void top_take(struct top_screen *sc, const struct top_opts *o)
{
	sc->error[0] = '\0';
	aie_err_capture(sc->error, sizeof(sc->error));
	if (top_sample(&sc->s, o) && !*sc->error)
		snprintf(sc->error, sizeof(sc->error), "cannot read the table");
	aie_err_capture(NULL, 0);
	if (*sc->error)
		top_clock(sc->error_clock, sizeof(sc->error_clock), false);
}

/*
 * A key while a prompt is open: Enter takes what is typed, Esc cancels,
 * Backspace takes back a character (all the bytes of a UTF-8 one), ^U
 * the whole line. The tty stays as it is, cbreak: ^C still quits.
 */
static void top_prompt_key(struct top_screen *sc, struct top_opts *o, int c)
{
	size_t n = strlen(sc->input);
	double d;

	switch (c) {
	case '\n':
	case '\r':
	case KEY_ENTER:
		if (sc->prompt == '/') {
			snprintf(sc->filter, sizeof(sc->filter), "%s", sc->input);
			sc->first = 0;
		} else if (parse_seconds(sc->input, &d) && d >= TOP_DELAY_MIN) {
			o->view.delay = d;
		}
		sc->prompt = 0;
		break;
	case 27:	/* Esc */
		sc->prompt = 0;
		break;
	case KEY_BACKSPACE:
	case 127:
	case 8:
		while (n && ((unsigned char)sc->input[n - 1] & 0xc0) == 0x80)
			n--;
		sc->input[n ? n - 1 : 0] = '\0';
		break;
	case 21:	/* ^U */
		sc->input[0] = '\0';
		break;
	default:
		if (c >= ' ' && c < 256 && c != 127 && n + 1 < sizeof(sc->input)) {
			sc->input[n] = (char)c;
			sc->input[n + 1] = '\0';
		}
	}
}

/* A key: false to quit. */
static bool top_key(struct top_screen *sc, struct top_opts *o, int c)
{
	static const char keys[] = "bcsg";
	const char *k = c > 0 && c < 256 ? strchr(keys, c) : NULL;
	size_t page = LINES > 5 ? LINES - 5 : 1;

	if (sc->prompt) {
		top_prompt_key(sc, o, c);
		return true;
	}
	if (sc->help && c != KEY_RESIZE) {
		sc->help = false;
		return c != 'q';
	}
	if (k && *k) {
		o->view.key = (enum order_key)(k - keys);
		return true;
	}
	switch (c) {
	case 'q':
		return false;
	case '?':
	case 'h':
		sc->help = true;
		break;
	case 'p':
	case ' ':
		sc->paused = !sc->paused;
		break;
	case 'r':
		sc->refresh = true;
		break;
	case 'I':
		o->view.reverse = !o->view.reverse;
		break;
	case '+':
		o->view.delay = o->view.delay * 2 > TOP_DELAY_MAX ? TOP_DELAY_MAX :
				o->view.delay * 2;
		break;
	case '-':
		o->view.delay = o->view.delay / 2 < TOP_DELAY_MIN ? TOP_DELAY_MIN :
				o->view.delay / 2;
		break;
	case 'd':
	case '/':
		sc->prompt = (char)c;
		sc->input[0] = '\0';
		break;
	case KEY_DOWN:
	case 'j':
		sc->first++;
		break;
	case KEY_UP:
	case 'k':
		sc->first -= sc->first ? 1 : 0;
		break;
	case KEY_NPAGE:
		sc->first += page;
		break;
	case KEY_PPAGE:
		sc->first -= sc->first > page ? page : sc->first;
		break;
	case KEY_HOME:
		sc->first = 0;
		break;
	case KEY_END:
		sc->first = (size_t)-1 / 2;	/* top_draw() brings it back */
		break;
	}
	return true;
}

/* The terminal: samples every delay, keys between them. */
static int top_screen_loop(struct top_opts *o)
{
	struct top_screen *sc = xcalloc(1, sizeof(*sc));
	double next;
	long taken = 1;
	int c, ms;

	top_take(sc, o);
	if (!sc->s.have_cur) {
		/* nothing to show yet: say why, as batch mode would */
		endwin();
		aie_err("%s", sc->error);
		free(sc);
		return AIE_EXIT_FAIL;
	}
	next = top_now() + o->view.delay;
	top_draw(sc, o);
	while (!top_stop) {
		ms = (int)((next - top_now()) * 1000);
		timeout(ms < 0 ? 0 : ms > 200 ? 200 : ms);
		c = getch();
		if (c == ERR) {
			if (top_now() < next)
				continue;
			next = top_now() + o->view.delay;
			if (sc->paused)
				continue;
			if (o->iterations && taken >= o->iterations)
				break;
			top_take(sc, o);
			taken++;
		} else if (!top_key(sc, o, c)) {
			break;
		}
		if (sc->refresh) {
			sc->refresh = false;
			top_take(sc, o);
			taken++;
			next = top_now() + o->view.delay;
		}
		top_draw(sc, o);
	}
	top_samples_free(&sc->s);
	free(sc);
	endwin();
	return 0;
}

int top_screen(struct top_opts *o)
{
	setlocale(LC_ALL, "");
	if (!newterm(NULL, stdout, stdin)) {
		aie_err("cannot drive this terminal (TERM=%s): use -b",
			getenv("TERM") ? getenv("TERM") : "");
		return AIE_EXIT_FAIL;
	}
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	set_escdelay(25);	/* Esc alone cancels a prompt at once */
	curs_set(0);
	return top_screen_loop(o);
}
