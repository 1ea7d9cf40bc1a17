// SPDX-License-Identifier: GPL-2.0
/*
 * aie_helper_kinds.c - the kinds of allocation the helper makes on
 * command: the name the control file takes, the function that makes one
 * (and names its row), the bytes it asks for, and how to free it.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "aie_helper.h"

#define AIE_HELPER_KIND(_name, _fn, _req, _free)			\
	{ .name = _name, .func = #_fn, .req = _req, .alloc = _fn,	\
	  .free = _free }

struct aie_helper_kind aie_helper_kinds[] = {
	AIE_HELPER_KIND("kmalloc96", aie_helper_kmalloc_96, 96, kfree),
	AIE_HELPER_KIND("kmalloc97", aie_helper_kmalloc_97, 97, kfree),
	AIE_HELPER_KIND("kmalloc128", aie_helper_kmalloc_128, 128, kfree),
	AIE_HELPER_KIND("kmalloc129", aie_helper_kmalloc_129, 129, kfree),
	AIE_HELPER_KIND("kmalloc192", aie_helper_kmalloc_192, 192, kfree),
	AIE_HELPER_KIND("kmalloc193", aie_helper_kmalloc_193, 193, kfree),
	AIE_HELPER_KIND("large_const", aie_helper_kmalloc_large_const,
			AIE_HELPER_LARGE, kfree),
	AIE_HELPER_KIND("large_var", aie_helper_kmalloc_large_var,
			AIE_HELPER_LARGE, kfree),
	AIE_HELPER_KIND("fail", aie_helper_kmalloc_fail, AIE_HELPER_HUGE,
			kfree),
	AIE_HELPER_KIND("cache", aie_helper_cache_alloc, AIE_HELPER_OBJ_SIZE,
			aie_helper_cache_free),
	AIE_HELPER_KIND("remade", aie_helper_remade_alloc, 0,
			aie_helper_remade_free),
	AIE_HELPER_KIND("kstrdup", aie_helper_kstrdup,
			sizeof(AIE_HELPER_STR), kfree),
	AIE_HELPER_KIND("kmemdup", aie_helper_kmemdup,
			sizeof(aie_helper_blob), kfree),
	AIE_HELPER_KIND("pages0", aie_helper_pages0, PAGE_SIZE,
			aie_helper_free_pages0),
	AIE_HELPER_KIND("pages2", aie_helper_pages2, PAGE_SIZE << 2,
			aie_helper_free_pages2),
	AIE_HELPER_KIND("pages5", aie_helper_pages5, PAGE_SIZE << 5,
			aie_helper_free_pages5),
	AIE_HELPER_KIND("pages_node", aie_helper_pages_node, PAGE_SIZE << 1,
			aie_helper_free_pages1),
	AIE_HELPER_KIND("get_free_pages", aie_helper_get_free_pages,
			PAGE_SIZE << 1, aie_helper_free_pages_addr1),
	AIE_HELPER_KIND("get_zeroed_page", aie_helper_get_zeroed_page,
			PAGE_SIZE, aie_helper_free_page_addr),
	AIE_HELPER_KIND("folio", aie_helper_folio_alloc, PAGE_SIZE << 2,
			aie_helper_folio_put),
	AIE_HELPER_KIND("folio_node", aie_helper_folio_node, PAGE_SIZE << 1,
			aie_helper_folio_put),
	AIE_HELPER_KIND("pages_exact", aie_helper_pages_exact, 3 * PAGE_SIZE,
			aie_helper_free_pages_exact),
	AIE_HELPER_KIND("pages_fail", aie_helper_pages_fail, 0, kfree),
	AIE_HELPER_KIND("vmalloc12288", aie_helper_vmalloc_12288,
			3 * PAGE_SIZE, aie_helper_kvfree),
	AIE_HELPER_KIND("vmalloc10000", aie_helper_vmalloc_10000, 10000,
			aie_helper_kvfree),
	AIE_HELPER_KIND("vzalloc5000", aie_helper_vzalloc_5000, 5000,
			aie_helper_kvfree),
	AIE_HELPER_KIND("vmalloc_node4096", aie_helper_vmalloc_node_4096, 4096,
			aie_helper_kvfree),
	AIE_HELPER_KIND("__vmalloc6000", aie_helper___vmalloc_6000, 6000,
			aie_helper_kvfree),
	AIE_HELPER_KIND("kvmalloc100", aie_helper_kvmalloc_100, 100,
			aie_helper_kvfree),
	AIE_HELPER_KIND("kvmalloc8m", aie_helper_kvmalloc_8m, AIE_HELPER_HUGE,
			aie_helper_kvfree),
	AIE_HELPER_KIND("kvzalloc300", aie_helper_kvzalloc_300, 300,
			aie_helper_kvfree),
	AIE_HELPER_KIND("kvcalloc300", aie_helper_kvcalloc_10x30, 300,
			aie_helper_kvfree),
	AIE_HELPER_KIND("kvmalloc_array140", aie_helper_kvmalloc_array_7x20,
			140, aie_helper_kvfree),
	AIE_HELPER_KIND("kvmemdup100", aie_helper_kvmemdup_100, 100,
			aie_helper_kvfree),
	AIE_HELPER_KIND("kmemdup_array100", aie_helper_kmemdup_array_5x20, 100,
			kfree),
	AIE_HELPER_KIND("kstrdup_const", aie_helper_kstrdup_const,
			sizeof(AIE_HELPER_STR), aie_helper_kfree_const),
	AIE_HELPER_KIND("vmemdup_user16", aie_helper_vmemdup_user_16, 16,
			aie_helper_kvfree),
	AIE_HELPER_KIND("strndup_user", aie_helper_strndup_user, 0, kfree),
	AIE_HELPER_KIND("strndup_user_b", aie_helper_strndup_user_b, 0, kfree),
	AIE_HELPER_KIND("kvrealloc200", aie_helper_kvrealloc_200, 200,
			aie_helper_kvfree),
	AIE_HELPER_KIND("percpu40", aie_helper_percpu_40, 40,
			aie_helper_free_percpu),
	AIE_HELPER_KIND("kmalloc_acct100", aie_helper_kmalloc_acct_100, 100,
			kfree),
	AIE_HELPER_KIND("cache_acct", aie_helper_cache_acct,
			AIE_HELPER_OBJ_SIZE, aie_helper_acct_cache_free),
	AIE_HELPER_KIND("cache_gfp_acct", aie_helper_cache_gfp_acct,
			AIE_HELPER_OBJ_SIZE, aie_helper_cache_free),
	AIE_HELPER_KIND("pages_acct", aie_helper_pages_acct, PAGE_SIZE << 1,
			aie_helper_free_pages1),
	AIE_HELPER_KIND("kmalloc_oom", aie_helper_kmalloc_oom, 16384, kfree),
	AIE_HELPER_KIND("pages_oom", aie_helper_pages_oom, SZ_1M,
			aie_helper_free_pages_oom),
	AIE_HELPER_KIND("vmalloc_acct10000", aie_helper_vmalloc_acct_10000,
			10000, aie_helper_kvfree),
	AIE_HELPER_KIND("percpu_acct40", aie_helper_percpu_acct_40, 40,
			aie_helper_free_percpu),
	AIE_HELPER_KIND("percpu_fail", aie_helper_percpu_fail,
			AIE_HELPER_PERCPU_TOO_BIG, aie_helper_free_percpu),
	AIE_HELPER_KIND("percpu_big", aie_helper_percpu_big,
			AIE_HELPER_PERCPU_BIG, aie_helper_free_percpu),
	AIE_HELPER_KIND("vmalloc_nowarn", aie_helper_vmalloc_nowarn,
			3 * PAGE_SIZE, aie_helper_kvfree),
	AIE_HELPER_KIND("krealloc500", aie_helper_krealloc_500, 500, kfree),
	AIE_HELPER_KIND("unknown_site", aie_helper_unknown_site, 24,
			aie_helper_unknown_free),
	AIE_HELPER_KIND("kfree_sensitive96", aie_helper_kmalloc_sensitive_96, 96,
			aie_helper_kfree_sensitive),
	AIE_HELPER_KIND("ctx_a", aie_helper_ctx_outer_a, 64, kfree),
	AIE_HELPER_KIND("ctx_b", aie_helper_ctx_outer_b, 64, kfree),
	AIE_HELPER_KIND("ctx_c", aie_helper_ctx_outer_c, 64, kfree),
	AIE_HELPER_KIND("kmalloc_node0", aie_helper_kmalloc_node0,
			AIE_HELPER_OBJ_SIZE, kfree),
	AIE_HELPER_KIND("kmalloc_node1", aie_helper_kmalloc_node1,
			AIE_HELPER_OBJ_SIZE, kfree),
	AIE_HELPER_KIND("large_node0", aie_helper_large_node0,
			AIE_HELPER_LARGE, kfree),
	AIE_HELPER_KIND("large_node1", aie_helper_large_node1,
			AIE_HELPER_LARGE, kfree),
	AIE_HELPER_KIND("cache_node0", aie_helper_cache_node0,
			AIE_HELPER_OBJ_SIZE, aie_helper_cache_free),
	AIE_HELPER_KIND("cache_node1", aie_helper_cache_node1,
			AIE_HELPER_OBJ_SIZE, aie_helper_cache_free),
	AIE_HELPER_KIND("pages_node0", aie_helper_pages_node0, PAGE_SIZE << 1,
			aie_helper_free_pages1),
	AIE_HELPER_KIND("pages_node1", aie_helper_pages_node1, PAGE_SIZE << 1,
			aie_helper_free_pages1),
};

const unsigned int aie_helper_nkinds = ARRAY_SIZE(aie_helper_kinds);

struct aie_helper_kind *aie_helper_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(aie_helper_kinds); i++) {
		if (!strcmp(aie_helper_kinds[i].name, name))
			return &aie_helper_kinds[i];
	}
	return NULL;
}
