// SPDX-License-Identifier: GPL-2.0
/*
 * dwarf.c - from function+offset to file:line with libdwfl.
 *
 * The file is reported "offline" (dwfl_report_offline()): for a module,
 * an ET_REL object, libdwfl lays its sections out and applies the
 * relocations of its DWARF, which a plain libdw read of a .ko lacks.
 * Separate debug files are not searched (and debuginfod is never asked):
 * the file given must carry its DWARF, as the .ko and vmlinux of
 * Debian's linux-image-*-dbg do.
 *
 * Functions are found by name in the symbol table. Static functions may
 * share a name; kallsyms' size (the distance to the next symbol) then
 * picks the one whose st_size it exceeds by less than the padding
 * between functions.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf.h"
#include "util.h"

/* Most bytes of alignment and __pfx_ padding between two functions. */
#define DWARF_FUNC_PAD	64

struct dwarf_sym {
	const char *name;
	GElf_Addr addr;
	GElf_Xword size;
};

struct dwarf_file {
	Dwfl *dwfl;
	Dwfl_Module *mod;
	struct dwarf_sym *syms;
	size_t nr;
	char srctree[256];	/* see dwarf_find_srctree() */
	bool srctree_known;
};

static int dwarf_no_separate_debuginfo(Dwfl_Module *mod, void **userdata,
				       const char *modname, Dwarf_Addr base,
				       const char *file_name,
				       const char *debuglink_file,
				       GElf_Word debuglink_crc,
				       char **debuginfo_file_name)
{
	(void)mod, (void)userdata, (void)modname, (void)base, (void)file_name;
	(void)debuglink_file, (void)debuglink_crc, (void)debuginfo_file_name;
	return -1;
}

static const Dwfl_Callbacks dwarf_callbacks = {
	.find_debuginfo = dwarf_no_separate_debuginfo,
	.section_address = dwfl_offline_section_address,
};

static int dwarf_sym_cmp(const void *pa, const void *pb)
{
	const struct dwarf_sym *a = pa, *b = pb;
	int c = strcmp(a->name, b->name);

	if (c)
		return c;
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* The defined functions of the module, sorted by name. */
static void dwarf_load_syms(struct dwarf_file *f)
{
	int i, n = dwfl_module_getsymtab(f->mod);
	const char *name;
	GElf_Sym sym;
	GElf_Addr addr;

	f->syms = xcalloc(n > 0 ? n : 1, sizeof(*f->syms));
	for (i = 1; i < n; i++) {
		name = dwfl_module_getsym_info(f->mod, i, &sym, &addr, NULL,
					       NULL, NULL);
		if (!name || !*name || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
		    sym.st_shndx == SHN_UNDEF)
			continue;
		f->syms[f->nr++] = (struct dwarf_sym){ name, addr, sym.st_size };
	}
	qsort(f->syms, f->nr, sizeof(*f->syms), dwarf_sym_cmp);
}

struct dwarf_file *dwarf_open(const char *path)
{
	struct dwarf_file *f = xcalloc(1, sizeof(*f));

	f->dwfl = dwfl_begin(&dwarf_callbacks);
	if (!f->dwfl) {
		aie_err("%s: %s", path, dwfl_errmsg(-1));
		free(f);
		return NULL;
	}
	dwfl_report_begin(f->dwfl);
	f->mod = dwfl_report_offline(f->dwfl, path, path, -1);
	if (!f->mod || dwfl_report_end(f->dwfl, NULL, NULL)) {
		aie_err("%s: cannot read it as ELF: %s", path, dwfl_errmsg(-1));
		dwarf_close(f);
		return NULL;
	}
	dwarf_load_syms(f);
	return f;
}

void dwarf_close(struct dwarf_file *f)
{
	if (!f)
		return;
	dwfl_end(f->dwfl);
	free(f->syms);
	free(f);
}

bool dwarf_build_id(struct dwarf_file *f, char *hex, size_t len)
{
	const unsigned char *bits;
	GElf_Addr vaddr;
	int i, n = dwfl_module_build_id(f->mod, &bits, &vaddr);

	if (n <= 0 || (size_t)n * 2 >= len)
		return false;
	for (i = 0; i < n; i++)
		sprintf(hex + 2 * i, "%02x", bits[i]);
	return true;
}

const char *dwarf_result_name(enum dwarf_result r)
{
	static const char * const names[] = {
		[DWARF_OK] = "resolved",
		[DWARF_NO_SYMBOL] = "no such function in the debug file",
		[DWARF_AMBIGUOUS] = "several functions of that name",
		[DWARF_OUT_OF_RANGE] = "offset outside the function",
		[DWARF_NO_LINE] = "no line information",
	};

	return names[r];
}

/* The function called @name that kallsyms sized @size, or why none. */
static enum dwarf_result dwarf_find(const struct dwarf_file *f,
				    const char *name, unsigned long size,
				    const struct dwarf_sym **out)
{
	const struct dwarf_sym *s, *end = f->syms + f->nr, *lo = f->syms;
	size_t n = f->nr, fits = 0, same = 0;

	while (n) {		/* lower bound of @name */
		if (strcmp(lo[n / 2].name, name) < 0) {
			lo += n / 2 + 1;
			n -= n / 2 + 1;
		} else {
			n /= 2;
		}
	}
	for (s = lo; s < end && !strcmp(s->name, name); s++) {
		same++;
		if (!size || (s->size <= size && size - s->size < DWARF_FUNC_PAD)) {
			fits++;
			*out = s;
		}
	}
	if (!same)
		return DWARF_NO_SYMBOL;
	if (same == 1) {
		*out = lo;
		return DWARF_OK;
	}
	return fits == 1 ? DWARF_OK : DWARF_AMBIGUOUS;
}

static bool dwarf_is_header(const char *file)
{
	return str_ends(file, ".h");
}

/*
 * The scopes around @pc, innermost first, in the concrete DIE tree:
 * dwarf_getscopes() follows the innermost inlined instance to its
 * abstract origin, whose parents skip the outer inlined instances;
 * dwarf_getscopes_die() on that instance walks its real parents.
 */
static int dwarf_concrete_scopes(Dwarf_Die *cu, Dwarf_Addr pc,
				 Dwarf_Die **scopes)
{
	Dwarf_Die inner;
	int n = dwarf_getscopes(cu, pc, scopes);

	if (n <= 0)
		return n;
	inner = (*scopes)[0];
	free(*scopes);
	*scopes = NULL;
	return dwarf_getscopes_die(&inner, scopes);
}

static bool dwarf_is_function(Dwarf_Die *die)
{
	int tag = dwarf_tag(die);

	return tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine;
}

/*
 * The function the line is in, and that line: unless @innermost, step out
 * of inlined scopes while the line is in a header. Each
 * DW_TAG_inlined_subroutine's call_file:call_line is where it was called,
 * in the next function scope out. The name of an inlined instance or of
 * an out-of-line copy (foo.constprop.0) is its abstract origin's.
 */
static void dwarf_scope_line(Dwarf_Die *cu, Dwarf_Addr pc, bool innermost,
			     const char **file, int *line, const char **func)
{
	Dwarf_Die *scopes = NULL;
	Dwarf_Files *files = NULL;
	Dwarf_Attribute a;
	Dwarf_Word cf, cl;
	size_t nfiles;
	const char *name;
	int i, n = dwarf_concrete_scopes(cu, pc, &scopes);

	*func = NULL;
	for (i = 0; i < n; i++) {
		if (!dwarf_is_function(&scopes[i]))
			continue;
		*func = dwarf_formstring(dwarf_attr_integrate(&scopes[i],
							      DW_AT_name, &a));
		if (innermost || !dwarf_is_header(*file) ||
		    dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine)
			break;
		if ((!files && dwarf_getsrcfiles(cu, &files, &nfiles)) ||
		    !dwarf_attr(&scopes[i], DW_AT_call_file, &a) ||
		    dwarf_formudata(&a, &cf) ||
		    !dwarf_attr(&scopes[i], DW_AT_call_line, &a) ||
		    dwarf_formudata(&a, &cl))
			break;
		name = dwarf_filesrc(files, cf, NULL, NULL);
		if (!name)
			break;
		*file = name;
		*line = cl;
		*func = NULL;
	}
	free(scopes);
}

/* @file relative to @cu's compilation directory when below it. */
static const char *dwarf_below_comp_dir(Dwarf_Die *cu, const char *file)
{
	Dwarf_Attribute a;
	const char *dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &a));
	size_t n = dir ? strlen(dir) : 0;

	if (n && !strncmp(file, dir, n) && file[n] == '/')
		return file + n + 1;
	return file;
}

/*
 * The kernel's source tree as file names start, below the compilation
 * directory: "" for a kernel built in its source tree,
 * "debian/build/source_rt/" for Debian's rt flavour, built beside it. The
 * kernel's own tags have no such prefix (-fmacro-prefix-map). Found from
 * the unit of init/main.c, which every vmlinux has; "" for a module.
 */
static void dwarf_find_srctree(struct dwarf_file *f)
{
	Dwarf_Addr bias;
	Dwarf *dw = dwfl_module_getdwarf(f->mod, &bias);
	Dwarf_Off off = 0, next;
	size_t hsize, n;
	const char *name;
	Dwarf_Die cu;

	f->srctree_known = true;
	while (dw && !dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL)) {
		name = dwarf_offdie(dw, off + hsize, &cu) ? dwarf_diename(&cu) : NULL;
		off = next;
		if (!name)
			continue;
		name = dwarf_below_comp_dir(&cu, name);
		n = strlen(name);
		if (str_ends(name, "init/main.c") &&
		    (n == 11 || name[n - 12] == '/') && n - 11 < sizeof(f->srctree)) {
			snprintf(f->srctree, sizeof(f->srctree), "%.*s",
				 (int)(n - 11), name);
			return;
		}
	}
}

/*
 * @file as the kernel's tags name it: below the compilation directory and
 * the source tree when it lies below them.
 */
static const char *dwarf_relative(struct dwarf_file *f, Dwarf_Die *cu,
				  const char *file)
{
	size_t n;

	if (!f->srctree_known)
		dwarf_find_srctree(f);
	file = dwarf_below_comp_dir(cu, file);
	n = strlen(f->srctree);
	if (n && !strncmp(file, f->srctree, n))
		file += n;
	return file;
}

enum dwarf_result dwarf_resolve(struct dwarf_file *f, const char *func,
				unsigned long off, unsigned long size,
				bool innermost, char *file, size_t len,
				unsigned int *line, char *src_func,
				size_t src_func_len)
{
	const struct dwarf_sym *sym = NULL;
	enum dwarf_result r = dwarf_find(f, func, size, &sym);
	Dwarf_Addr addr, bias;
	Dwarf_Die *cu;
	Dwarf_Line *l;
	const char *src, *scope;
	int lineno;

	if (r != DWARF_OK)
		return r;
	if (!off || (sym->size && off - 1 >= sym->size))
		return DWARF_OUT_OF_RANGE;
	addr = sym->addr + off - 1;	/* inside the call instruction */
	cu = dwfl_module_addrdie(f->mod, addr, &bias);
	l = cu ? dwarf_getsrc_die(cu, addr - bias) : NULL;
	src = l ? dwarf_linesrc(l, NULL, NULL) : NULL;
	if (!src || dwarf_lineno(l, &lineno) || lineno <= 0)
		return DWARF_NO_LINE;
	dwarf_scope_line(cu, addr - bias, innermost, &src, &lineno, &scope);
	snprintf(file, len, "%s", dwarf_relative(f, cu, src));
	*line = lineno;
	snprintf(src_func, src_func_len, "%s", scope ?: "");
	return DWARF_OK;
}
