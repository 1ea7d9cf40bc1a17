// SPDX-License-Identifier: GPL-2.0
/*
 * numa_test - live bytes per NUMA node (format 1.4's node<N>: keys), on a
 * guest with two nodes (AIE_VM_NUMA=2): the helper allocates on node 0
 * and on node 1 explicitly, with __GFP_THISNODE, at a call site per node
 * and allocator (kmalloc_node() in a cache and above the caches,
 * kmem_cache_alloc_node(), alloc_pages_node()), and each row must show
 * exactly its live bytes on its node and none on the other, after the
 * allocations and after each free. Skips on a guest with one node.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "aie_util.h"
#include "aie_setup.h"

#define NODE_ONLINE	"/sys/devices/system/node/online"

/* A kind on each node, the functions that name their rows. */
struct node_kind {
	const char *kind[2], *func[2], *type;
};

static const struct node_kind node_kinds[] = {
	{ { "kmalloc_node0", "kmalloc_node1" },
	  { "aie_helper_kmalloc_node0", "aie_helper_kmalloc_node1" }, "slab" },
	{ { "large_node0", "large_node1" },
	  { "aie_helper_large_node0", "aie_helper_large_node1" }, "slab" },
	{ { "cache_node0", "cache_node1" },
	  { "aie_helper_cache_node0", "aie_helper_cache_node1" }, "slab" },
	{ { "pages_node0", "pages_node1" },
	  { "aie_helper_pages_node0", "aie_helper_pages_node1" }, "page" },
};

/* Bytes charged per object of node_kinds[@i]; -1 on error. */
static long long kind_bytes(size_t i)
{
	long long page = sysconf(_SC_PAGESIZE);

	switch (i) {
	case 0:
		return aie_kmalloc_charge(200);	/* AIE_HELPER_OBJ_SIZE */
	case 1:
		return 4 * page;	/* 3 pages + 1 byte: an order-2 block */
	case 2:
		return aie_helper_cache_bytes();
	default:
		return 2 * page;	/* order 1 */
	}
}

/* Whether nodes 0 and 1 are online: "/sys/.../online" reads "0-1". */
static bool two_nodes(void)
{
	char *buf = aie_read_file(NODE_ONLINE);
	bool two;

	if (!buf)
		return false;
	two = !strncmp(buf, "0-", 2) || !strncmp(buf, "0,1", 3);
	free(buf);
	return two;
}

/*
 * The row of @func, @type: @calls live objects of @bytes each, all on
 * node @nid, none on the other of nodes 0 and 1.
 */
static void expect_on_node(struct __test_metadata *_metadata,
			   const char *func, const char *type, long long calls,
			   long long bytes, int nid)
{
	struct aie_row r;

	ASSERT_EQ(1, aie_row_get_type("aie_helper", func, type, &r))
		TH_LOG("no row for %s", func);
	ASSERT_EQ(3U, r.nodes & 3) TH_LOG("%s", func);
	EXPECT_EQ((unsigned long long)calls, r.calls) TH_LOG("%s", func);
	EXPECT_EQ(calls * bytes, r.bytes) TH_LOG("%s", func);
	EXPECT_EQ(calls * bytes, r.node_bytes[nid])
		TH_LOG("%s node%d", func, nid);
	EXPECT_EQ(0, r.node_bytes[1 - nid]) TH_LOG("%s node%d", func, 1 - nid);
}

FIXTURE(numa) {
};

FIXTURE_SETUP(numa)
{
	if (aie_skip_missing(_metadata))
		return;
	if (!two_nodes())
		SKIP(return, "needs NUMA nodes 0 and 1 (AIE_VM_NUMA=2)");
}

FIXTURE_TEARDOWN(numa)
{
	aie_teardown();
}

/* numa=auto turns the counters on with two nodes online. */
TEST_F(numa, auto_is_on_with_two_nodes)
{
	ASSERT_EQ(0, aie_setup("numa=auto"));
	EXPECT_EQ(0, aie_stat_is("numa", "on"));
	EXPECT_LT(0, aie_stat("numa_bytes"));
}

/* Each kind's bytes on its node, exactly, at allocation and at each free. */
TEST_F(numa, node_bytes_exact)
{
	long long bytes;
	size_t i;
	int nid;

	ASSERT_EQ(0, aie_setup("numa=on"));
	for (i = 0; i < ARRAY_SIZE(node_kinds); i++) {
		const struct node_kind *k = &node_kinds[i];

		bytes = kind_bytes(i);
		ASSERT_LT(0, bytes);
		for (nid = 0; nid < 2; nid++)
			ASSERT_EQ(0, aie_helper("alloc %s %d", k->kind[nid],
						5 + nid));
		for (nid = 0; nid < 2; nid++)
			expect_on_node(_metadata, k->func[nid], k->type,
				       5 + nid, bytes, nid);
		for (nid = 0; nid < 2; nid++)
			ASSERT_EQ(0, aie_helper("free %s 2", k->kind[nid]));
		for (nid = 0; nid < 2; nid++)
			expect_on_node(_metadata, k->func[nid], k->type,
				       3 + nid, bytes, nid);
		for (nid = 0; nid < 2; nid++)
			ASSERT_EQ(0, aie_helper("free %s %d", k->kind[nid],
						3 + nid));
		for (nid = 0; nid < 2; nid++)
			expect_on_node(_metadata, k->func[nid], k->type, 0,
				       bytes, nid);
	}
}

/*
 * Sampled, each object stands for its weight: a row's node bytes add up
 * to its live bytes, the estimate, and go back to 0 with the frees.
 */
TEST_F(numa, sampled_node_bytes_add_up)
{
	struct aie_row r;
	int nid;

	ASSERT_EQ(0, aie_setup("numa=on sample=4096"));
	for (nid = 0; nid < 2; nid++)
		ASSERT_EQ(0, aie_helper("alloc kmalloc_node%d 400", nid));
	for (nid = 0; nid < 2; nid++) {
		ASSERT_EQ(1, aie_row_get_type("aie_helper",
					      nid ? "aie_helper_kmalloc_node1" :
					      "aie_helper_kmalloc_node0",
					      "slab", &r));
		ASSERT_EQ(3U, r.nodes & 3);
		EXPECT_LT(0, r.bytes);
		EXPECT_EQ(r.bytes, r.node_bytes[nid]);
		EXPECT_EQ(0, r.node_bytes[1 - nid]);
	}
	ASSERT_EQ(0, aie_helper("free all"));
	for (nid = 0; nid < 2; nid++)
		expect_on_node(_metadata, nid ? "aie_helper_kmalloc_node1" :
			       "aie_helper_kmalloc_node0", "slab", 0, 0, nid);
}

/* vmalloc and percpu rows carry no node keys. */
TEST_F(numa, no_node_keys_for_vmalloc_percpu)
{
	struct aie_row r;

	ASSERT_EQ(0, aie_setup("numa=on"));
	ASSERT_EQ(0, aie_helper("alloc vmalloc12288 1"));
	ASSERT_EQ(0, aie_helper("alloc percpu40 1"));
	ASSERT_EQ(1, aie_row_get_type("aie_helper", "aie_helper_vmalloc_12288",
				      "vmalloc", &r));
	EXPECT_EQ(0U, r.nodes);
	ASSERT_EQ(1, aie_row_get_type("aie_helper", "aie_helper_percpu_40",
				      "percpu", &r));
	EXPECT_EQ(0U, r.nodes);
}

/* Off by default: no node keys, no memory, on two nodes too. */
TEST_F(numa, off_by_default)
{
	struct aie_row r;

	ASSERT_EQ(0, aie_setup(NULL));
	EXPECT_EQ(0, aie_stat_is("numa", "off"));
	EXPECT_EQ(0, aie_stat("numa_bytes"));
	ASSERT_EQ(0, aie_helper("alloc kmalloc_node1 2"));
	ASSERT_EQ(1, aie_row_get_type("aie_helper", "aie_helper_kmalloc_node1",
				      "slab", &r));
	EXPECT_EQ(2ULL, r.calls);
	EXPECT_EQ(0U, r.nodes);
}

/* A numa= value but auto, on and off is refused. */
TEST_F(numa, bad_mode_refused)
{
	aie_teardown();
	EXPECT_EQ(-EINVAL, aie_load(AIE_MODULE_KO, "numa=2"));
	EXPECT_FALSE(aie_module_loaded("allocinfo_ext"));
}

TEST_HARNESS_MAIN
