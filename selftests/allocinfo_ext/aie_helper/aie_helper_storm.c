// SPDX-License-Identifier: GPL-2.0
/*
 * aie_helper_storm.c - "storm": on every online CPU at once, a kernel
 * thread allocates and frees objects of the storm kinds; and the counts
 * of what storms made and freed, per kind.
 */
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/seq_file.h>

#include "aie_helper.h"

const char aie_helper_storm_file[] = __FILE__;

/*
 * Storm kinds: every allocator, a helper that hides its caller, and a
 * large kmalloc(), whose pages' slab map entries are set and cleared with
 * no lock.
 */
static const char * const aie_storm_kinds[] = {
	"kmalloc96", "kmalloc193", "cache", "pages0", "pages2",
	"vmalloc10000", "percpu40", "kvmalloc100", "large_const",
};

#define AIE_STORM_RING	16	/* objects a thread holds per kind */

struct aie_storm {
	unsigned int rounds;
	atomic_t running;
	struct completion done;
};

/*
 * One storm thread: @rounds times, per kind, allocate one object and free
 * the oldest of a ring of AIE_STORM_RING, then free the rest. Process
 * context: every kind may sleep.
 */
static int aie_storm_thread(void *arg)
{
	void *slots[ARRAY_SIZE(aie_storm_kinds)][AIE_STORM_RING] = { };
	struct aie_storm *st = arg;
	struct aie_helper_kind *k;
	unsigned int r, i, j;
	void *p;

	for (r = 0; r < st->rounds; r++) {
		for (i = 0; i < ARRAY_SIZE(aie_storm_kinds); i++) {
			k = aie_helper_find(aie_storm_kinds[i]);
			j = r % AIE_STORM_RING;
			if (slots[i][j]) {
				k->free(slots[i][j]);
				atomic64_inc(&k->storm_frees);
			}
			p = k->alloc();
			slots[i][j] = IS_ERR(p) ? NULL : p;
			if (slots[i][j])
				atomic64_inc(&k->storm_allocs);
		}
		cond_resched();
	}
	for (i = 0; i < ARRAY_SIZE(aie_storm_kinds); i++) {
		k = aie_helper_find(aie_storm_kinds[i]);
		for (j = 0; j < AIE_STORM_RING; j++) {
			if (slots[i][j]) {
				k->free(slots[i][j]);
				atomic64_inc(&k->storm_frees);
			}
		}
	}
	if (atomic_dec_and_test(&st->running))
		complete(&st->done);
	return 0;
}

/* A storm thread bound to every online CPU; returns when all are done. */
int aie_helper_storm(unsigned int rounds)
{
	struct aie_storm st = { .rounds = rounds };
	struct task_struct *t;
	int cpu, ret = 0;

	init_completion(&st.done);
	atomic_set(&st.running, 1);
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		/* kthread_create_on_cpu() is not exported on 5.10 */
		t = kthread_create_on_node(aie_storm_thread, &st,
					   cpu_to_node(cpu), "aie_storm/%u",
					   cpu);
		if (IS_ERR(t)) {
			ret = PTR_ERR(t);
			break;
		}
		kthread_bind(t, cpu);
		atomic_inc(&st.running);
		wake_up_process(t);
	}
	cpus_read_unlock();
	if (!atomic_dec_and_test(&st.running))
		wait_for_completion(&st.done);
	return ret;
}

int aie_helper_storm_show(struct seq_file *m, void *v)
{
	struct aie_helper_kind *k;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(aie_storm_kinds); i++) {
		k = aie_helper_find(aie_storm_kinds[i]);
		seq_printf(m, "%s %lld %lld\n", k->name,
			   (long long)atomic64_read(&k->storm_allocs),
			   (long long)atomic64_read(&k->storm_frees));
	}
	return 0;
}
