# SPDX-License-Identifier: GPL-2.0
# options-tests.sh - the options each command's help lists, its synopsis
# (one table in cmdtab.c, printed by the command and the top-level help) and
# the man page's SYNOPSIS name the same options; a letter means one thing in
# every command: cmdtab.c's vocabulary ("help options"), each command's help
# and what its getopt() takes agree; the man page's SYNOPSIS and each
# command's options are what "help man" makes of the tables, the same words
# as the command's help. Sourced by run.sh.

options_tests() {
	local name="options: each command's help, the top-level help and the man page agree"

	if python3 - "$TOOL" "$MAN" >"$TMP/out" 2>&1 <<-'EOT'; then
	import os, re, subprocess, sys
	tool, man = sys.argv[1], sys.argv[2]
	cmds = "top snapshot diff group export ctl annotate report context compare leaks ledger query".split()
	env = dict(os.environ, MANWIDTH="1000")
	page = subprocess.run(["man", "-l", man], capture_output=True, text=True,
	                      env=env, check=True).stdout
	syn = page[page.index("SYNOPSIS"):page.index("DESCRIPTION")]
	top = subprocess.run([tool, "--help"], capture_output=True, text=True,
	                     check=True).stdout
	top = top[top.index("Commands:"):top.index("Examples:")]

	def opts(text):
	    return set(re.findall(r"(?<![\w-])(--?[a-zA-Z][\w-]*)", text))

	bad = []
	for c in cmds:
	    h = subprocess.run([tool, c, "--help"], capture_output=True, text=True,
	                       check=True).stdout
	    usage = h[:h.index("\n\n")]
	    listed, alias = set(), {}
	    for l in h.splitlines():
	        m = re.match(r"\s+(-\w), (--[\w-]+)", l)
	        if m:
	            alias[m.group(1)] = m.group(2)
	            listed |= {m.group(1), m.group(2)}
	        m = re.match(r"\s+(--[\w-]+)", l)
	        if m:
	            listed.add(m.group(1))
	    block = re.search(r"^  allocinfo-ext %s .*?(?=^  allocinfo-ext (?!%s )|\Z)" % (c, c),
	                      top, re.S | re.M).group(0)
	    man_lines = "\n".join(l for l in syn.splitlines()
	                          if l.split()[:2] == ["allocinfo-ext", c])
	    sets = {"usage": opts(usage), "option list": listed - {"-h", "--help"},
	            "man page": opts(man_lines), "top-level help": opts(block)}
	    norm = {k: {alias.get(o, o) for o in v} for k, v in sets.items()}
	    every = set().union(*norm.values())
	    if not norm["usage"]:
	        bad.append("%s: no option found in its usage" % c)
	    for k, v in norm.items():
	        if v != every:
	            bad.append("%s: the %s lacks %s" % (c, k, " ".join(sorted(every - v))))
	print("\n".join(bad))
	sys.exit(1 if bad else 0)
	EOT
		ok "$name"
	else
		not_ok "$name" "$(cat "$TMP/out")"
	fi
}

# The vocabulary as "help options" prints it: letter -> (long, arg, commands).
VOCAB_PY='
import re, subprocess, sys
CMDS = "top snapshot diff group export ctl annotate report context compare leaks ledger query".split()
def run(tool, *args):
    p = subprocess.run([tool, *args], capture_output=True, text=True)
    return p.returncode, p.stdout
def vocab(tool):
    rc, text = run(tool, "help", "options")
    assert rc == 0, "help options: exit %d" % rc
    v = {}
    for l in text.split("\n\n")[0].splitlines()[1:]:
        if l.startswith("      --dry-run "):
            continue
        m = re.match(r"  -(\w), --([\w-]+)(?: ([A-Z]+))? +(.*): (.*)$", l)
        assert m, "help options: bad line %r" % l
        c, long, arg, what, cmds = m.groups()
        v[c] = (long, arg, set(CMDS) if cmds == "every command" else set(cmds.split()))
    old = re.findall(r" --([\w-]+) \(-(\w)\)", text.split("\n\n")[1])
    assert text.split("\n\n")[1].startswith("Old names, still taken:") and old, \
        "help options: no old names"
    return text, v, old
'

vocab_tests() {
	local name="options: each command takes exactly its letters, as help options says"

	if python3 - "$TOOL" >"$TMP/out" 2>&1 <<-EOT; then
	$VOCAB_PY
	tool = sys.argv[1]
	text, v, old = vocab(tool)
	example = {"N": "2", "SEC": "1", "FILE": "/dev/null", "KEY": "bytes",
	           "FMT": "json", "NAME": "x"}
	bad = []
	for cmd in CMDS:
	    rc, h = run(tool, cmd, "--help")
	    shown = {"h"}
	    for l in h.splitlines():
	        m = re.match(r"\s+-(\w), --([\w-]+)(?: ([A-Z]+))?(?=  |$)", l)
	        if not m:
	            continue
	        c, long, arg = m.groups()
	        shown.add(c)
	        if c not in v or v[c][:2] != (long, arg):
	            bad.append("%s --help: -%s, --%s %s is not the vocabulary's %s"
	                       % (cmd, c, long, arg or "", v.get(c)))
	    takes = {c for c in v if cmd in v[c][2]}
	    if shown != takes:
	        bad.append("%s: its help lists -%s, help options -%s"
	                   % (cmd, "".join(sorted(shown)), "".join(sorted(takes))))
	    for c in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ":
	        arg = [example[v[c][1]]] if c in v and v[c][1] else []
	        want = 0 if c in takes else 2
	        if run(tool, cmd, "-" + c, *arg, "--help")[0] != want:
	            bad.append("%s -%s: exit status not %d" % (cmd, c, want))
	        if c in takes and run(tool, cmd, "--" + v[c][0], *arg, "--help")[0]:
	            bad.append("%s --%s: refused" % (cmd, v[c][0]))
	    for name, c in old:
	        arg = [example[v[c][1]]] if v[c][1] else []
	        if c in takes and run(tool, cmd, "--" + name, *arg, "--help")[0]:
	            bad.append("%s --%s (old -%s): refused" % (cmd, name, c))
	for cmd in ("ctl", "annotate"):
	    if run(tool, cmd, "--dry-run", "--help")[0]:
	        bad.append("%s --dry-run: refused" % cmd)
	print("\n".join(bad))
	sys.exit(1 if bad else 0)
	EOT
		ok "$name"
	else
		not_ok "$name" "$(cat "$TMP/out")"
	fi

	# The man page's generated sections, as help man makes them anew from
	# the tables: a page edited by hand there, or a table changed without
	# "make man", fails.
	name="options: the man page's SYNOPSIS and each command's options are help man's"
	if "$TOOL" help man <"$MAN" >"$TMP/man" 2>"$TMP/err" && [ ! -s "$TMP/err" ] &&
		cmp -s "$MAN" "$TMP/man" &&
		[ "$(grep -c '^\.\\" generated: ' "$MAN")" = 15 ]; then
		ok "$name"
	else
		not_ok "$name" "$(cat "$TMP/err")" "$(diff -u "$MAN" "$TMP/man")" \
			"(make -C tools/allocinfo-ext man makes it anew)"
	fi

	name="options: help man refuses a section it does not know"
	if ! printf '.\\" generated: FOO\n.\\" end generated\n' |
		"$TOOL" help man >/dev/null 2>"$TMP/err" &&
		[ "$(cat "$TMP/err")" = 'allocinfo-ext: unknown generated section "FOO"' ] &&
		! printf '.\\" generated: OPTIONS bogus\n.\\" end generated\n' |
		"$TOOL" help man >/dev/null 2>"$TMP/err" &&
		[ "$(cat "$TMP/err")" = 'allocinfo-ext: unknown generated section "OPTIONS bogus"' ]; then
		ok "$name"
	else
		not_ok "$name" "$(cat "$TMP/err")"
	fi

	name="options: the old long names still work"
	if "$TOOL" top --delay 1 --iterations 1 --help >/dev/null &&
		"$TOOL" context --duration 1 --help >/dev/null &&
		"$TOOL" leaks --rounds 2 --help >/dev/null &&
		"$TOOL" compare --rows 1 --help >/dev/null &&
		"$TOOL" report --svg - --help >/dev/null; then
		ok "$name"
	else
		not_ok "$name" "one of --delay, --iterations, --duration, --rounds, --rows, --svg refused"
	fi
}

# Each command's option lines: its --help's (help COMMAND's, the same) and
# the man page's under it are one text, option for option, word for word.
man_options_tests() {
	local name="options: each command's --help and its man page entry list the same options, the same words"

	if python3 - "$TOOL" "$MAN" >"$TMP/out" 2>&1 <<-'EOT'; then
	import re, shlex, subprocess, sys
	tool, man = sys.argv[1], sys.argv[2]
	page = open(man).read()
	cmds = "top snapshot diff group export ctl annotate report context leaks ledger compare query".split()

	def norm(t):
	    return " ".join(t.split())

	bad = []
	for c in cmds:
	    h = subprocess.run([tool, c, "--help"], capture_output=True, text=True,
	                       check=True).stdout
	    # the option lines: "  -s, --sort KEY  what", continued under what
	    helped, cur = [], None
	    for l in h.splitlines():
	        m = re.match(r" +((?:-\w, )?--[\w-]+(?: [A-Z]+)?)  +(.*)", l)
	        if m:
	            cur = [m.group(1), m.group(2)]
	            helped.append(cur)
	        elif cur and l.startswith("      ") and l.strip():
	            cur[1] += " " + l.strip()
	        elif not l.strip():
	            cur = None
	    m = re.search(r'^\.\\" generated: OPTIONS %s\n(.*?)^\.\\" end generated' % c,
	                  page, re.S | re.M)
	    if not m:
	        bad.append("%s: no generated OPTIONS section" % c)
	        continue
	    body = re.sub(r"\\f[BIR]", "", m.group(1)).replace("\\-", "-").replace("\\e", "\\")
	    # each option's words as its .B or .BI line prints them: the
	    # arguments joined, as those macros join them
	    manned = [l.split("\n", 1) for l in body.split(".TP\n")[1:]]
	    manned = [("".join(shlex.split(a.split(" ", 1)[1])) if re.match(r"\.BI? ", a) else "?" + a, b)
	              for a, b in manned]
	    want = [(norm(a), norm(b)) for a, b in helped]
	    got = [(norm(a), norm(b)) for a, b in manned]
	    if not want or want != got:
	        bad.append("%s: --help %s\n  man page %s" % (c, want, got))
	print("\n".join(bad))
	sys.exit(1 if bad else 0)
	EOT
		ok "$name"
	else
		not_ok "$name" "$(cat "$TMP/out")"
	fi
}
