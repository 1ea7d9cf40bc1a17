// SPDX-License-Identifier: GPL-2.0
/*
 * tbprof - a QEMU TCG plugin for `make bench-profile`: how many guest
 * instructions each translation block of the kernel's half of the address
 * space ran. Under TCG a block is translated once and run many times: at
 * its translation the plugin gives it a counter, and an inline add, which
 * QEMU emits into the translated code, counts its runs. At QEMU's exit
 * the plugin writes one line per block that ran,
 *
 *	<guest virtual address, hex> <instructions> <runs>
 *
 * to the file out=<path> names. A block translated again (after a flush,
 * or with other flags) has a line per translation; tools/bench/
 * profile-report.py adds them up by function.
 *
 * QEMU ships no header for its plugin API with Debian's qemu-system-x86,
 * so the few calls used are declared here, as version 1 of the API (QEMU
 * 4.2 to 8.1; Debian 12 has 7.2) has them. A later QEMU refuses the
 * plugin at load, by the version it exports, rather than misread it.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_info_t;

enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };

typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
					       struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
					      enum qemu_plugin_op op,
					      void *ptr, uint64_t imm);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
				    qemu_plugin_udata_cb_t cb, void *userdata);

#define TBPROF_EXPORT __attribute__((visibility("default")))
#define TBPROF_UNUSED __attribute__((unused))

TBPROF_EXPORT int qemu_plugin_version = 1;

/* The kernel's half of the x86-64 address space (4- or 5-level paging) */
#define TBPROF_KERNEL_START	0xff00000000000000ULL

/*
 * One translated block. Blocks are kept in chunks that never move: the
 * translated code adds to a counter's address.
 */
struct tbprof_block {
	uint64_t vaddr;
	uint64_t insns;
	uint64_t runs;
};

#define TBPROF_CHUNK	65536
#define TBPROF_CHUNKS	4096

static struct tbprof_block *tbprof_chunks[TBPROF_CHUNKS];
static size_t tbprof_nr;
static bool tbprof_full;
static const char *tbprof_out;

/*
 * At a translation: a new block gets a counter. Translation runs under
 * QEMU's translation lock, one at a time; the guest is run by a single
 * thread (-accel tcg,thread=single), so the inline adds do not race.
 */
static void tbprof_trans(qemu_plugin_id_t id TBPROF_UNUSED,
			 struct qemu_plugin_tb *tb)
{
	uint64_t vaddr = qemu_plugin_tb_vaddr(tb);
	struct tbprof_block **chunk, *b;

	if (vaddr < TBPROF_KERNEL_START || tbprof_full)
		return;
	chunk = &tbprof_chunks[tbprof_nr / TBPROF_CHUNK];
	if (!*chunk) {
		*chunk = calloc(TBPROF_CHUNK, sizeof(**chunk));
		if (!*chunk) {
			tbprof_full = true;
			return;
		}
	}
	b = &(*chunk)[tbprof_nr % TBPROF_CHUNK];
	b->vaddr = vaddr;
	b->insns = qemu_plugin_tb_n_insns(tb);
	if (++tbprof_nr == (size_t)TBPROF_CHUNK * TBPROF_CHUNKS)
		tbprof_full = true;
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &b->runs, 1);
}

static void tbprof_exit(qemu_plugin_id_t id TBPROF_UNUSED,
			void *userdata TBPROF_UNUSED)
{
	FILE *f = fopen(tbprof_out, "w");
	size_t i;

	if (!f) {
		perror(tbprof_out);
		return;
	}
	for (i = 0; i < tbprof_nr; i++) {
		const struct tbprof_block *b =
			&tbprof_chunks[i / TBPROF_CHUNK][i % TBPROF_CHUNK];

		if (b->runs)
			fprintf(f, "%llx %llu %llu\n",
				(unsigned long long)b->vaddr,
				(unsigned long long)b->insns,
				(unsigned long long)b->runs);
	}
	if (tbprof_full)
		fprintf(f, "# full: blocks translated later were not counted\n");
	if (fclose(f))
		perror(tbprof_out);
}

TBPROF_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
				      const struct qemu_info_t *info TBPROF_UNUSED,
				      int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4))
			tbprof_out = argv[i] + 4;
	}
	if (!tbprof_out || !*tbprof_out) {
		fprintf(stderr, "tbprof: out=<file> is needed\n");
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tbprof_trans);
	qemu_plugin_register_atexit_cb(id, tbprof_exit, NULL);
	return 0;
}
