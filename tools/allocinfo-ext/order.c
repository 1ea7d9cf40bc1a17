// SPDX-License-Identifier: GPL-2.0
/*
 * order.c - -s KEY and -r, one implementation for top, group, diff,
 * query and leaks (order.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "order.h"
#include "util.h"

static const char * const order_names[] = {
	[ORDER_BYTES] = "bytes", [ORDER_CALLS] = "calls",
	[ORDER_SLACK] = "slack", [ORDER_GROWTH] = "growth",
	[ORDER_OLDEST] = "oldest", [ORDER_SITES] = "sites",
};

const char *order_key_name(enum order_key key)
{
	return key < ARRAY_SIZE(order_names) ? order_names[key] : "input";
}

int order_parse(const char *s, unsigned int keys, enum order_key *key)
{
	char list[128] = "";
	size_t i, n = 0, len = 0, nkeys = __builtin_popcount(keys);

	for (i = 0; i < ARRAY_SIZE(order_names); i++) {
		if (!(keys & ORDER_BIT(i)))
			continue;
		if (!strcmp(s, order_names[i])) {
			*key = i;
			return 0;
		}
		n++;
		len += snprintf(list + len, sizeof(list) - len, "%s%s",
				n == 1 ? "" : n == nkeys ? " or " : ", ",
				order_names[i]);
	}
	aie_err("cannot sort by \"%s\": expected %s", s, list);
	return -1;
}

/* What order_cmp() compares by. */
struct order_ctx {
	const struct order_ops *ops;
	enum order_key key;
};

static int order_cmp(const void *a, const void *b, void *arg)
{
	const struct order_ctx *ctx = arg;
	long double va = ctx->ops->value(a, ctx->key);
	long double vb = ctx->ops->value(b, ctx->key);

	if (va != vb)
		return va < vb ? 1 : -1;
	return ctx->ops->tie(a, b);
}

/* Swap rows @a and @b of @size bytes. */
static void order_swap(char *a, char *b, size_t size)
{
	char t;

	while (size--) {
		t = *a;
		*a++ = *b;
		*b++ = t;
	}
}

void order_rows(void *base, size_t n, size_t size, const struct order *o,
		const struct order_ops *ops)
{
	struct order_ctx ctx = { ops, o->key };
	char *lo = base, *hi;

	if (!n)		/* qsort_r(NULL, 0) is undefined */
		return;
	if (o->key != ORDER_INPUT)
		qsort_r(base, n, size, order_cmp, &ctx);
	if (!o->reverse)
		return;
	for (hi = lo + (n - 1) * size; lo < hi; lo += size, hi -= size)
		order_swap(lo, hi, size);
}
