/* SPDX-License-Identifier: GPL-2.0 */
/*
 * order.h - the order of the rows of every command that lists sites or
 * groups: -s KEY, the largest first, and -r, the whole list reversed. A
 * key means one thing in every command (bytes: live bytes; growth: live
 * bytes gained), and a command takes the keys its rows have.
 */
#ifndef _AIE_TOOL_ORDER_H
#define _AIE_TOOL_ORDER_H

#include <stdbool.h>
#include <stddef.h>

enum order_key {
	ORDER_BYTES, ORDER_CALLS, ORDER_SLACK, ORDER_GROWTH, ORDER_OLDEST,
	ORDER_SITES,
	ORDER_INPUT,	/* no key: the order the rows came in */
};

#define ORDER_BIT(k)	(1u << (k))

struct order {
	enum order_key key;
	bool reverse;
};

/*
 * Key @s, one of @keys (ORDER_BIT()s), into *@key: 0, or -1 after the
 * message "cannot sort by ...: expected ..." naming @keys.
 */
int order_parse(const char *s, unsigned int keys, enum order_key *key);

const char *order_key_name(enum order_key key);

/*
 * How a command's rows compare: a row's figure for a key, and the
 * rows' own total order for ties (the one the command lists them in by
 * default).
 */
struct order_ops {
	long double (*value)(const void *row, enum order_key key);
	int (*tie)(const void *a, const void *b);
};

/*
 * Sort @n rows of @size at @base by @o: the largest o->key first, ties by
 * ops->tie; ORDER_INPUT leaves them as they are. o->reverse then turns the
 * whole list over, the smallest first.
 */
void order_rows(void *base, size_t n, size_t size, const struct order *o,
		const struct order_ops *ops);

#endif /* _AIE_TOOL_ORDER_H */
