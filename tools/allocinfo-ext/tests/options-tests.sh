# SPDX-License-Identifier: GPL-2.0
# options-tests.sh - the options each command's help lists, its synopsis
# (one table in main.c, printed by the command and the top-level help) and
# the man page's SYNOPSIS name the same options. Sourced by run.sh.

options_tests() {
	local name="options: each command's help, the top-level help and the man page agree"

	if python3 - "$TOOL" "$HERE/../../../Documentation/allocinfo-ext.1" \
		>"$TMP/out" 2>&1 <<-'EOT'; then
	import os, re, subprocess, sys
	tool, man = sys.argv[1], sys.argv[2]
	cmds = "top snapshot diff group export ctl annotate report context compare leaks".split()
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
