# SPDX-License-Identifier: GPL-2.0
# schema-tests.sh - every command's JSON rows that name a call site have
# one shape, ../schema/site-row.schema.json (site, module, func, file,
# line; numbers as numbers), checked by a small validator of the
# keywords it uses (and by python3-jsonschema too where installed); the same
# table gives the same sites in each. Sourced by run.sh, run in fixtures/.

# Each command, and the key of its rows (top: one JSON line per sample).
SCHEMA_COMMANDS=(
	"sites|export -f json ext-b.txt"
	"sites|export -f json kernel.txt"
	"sites|export -f json hostile-utf8.txt"
	"rows|top -j -n 1 -l 0 ext-a.txt"
	"rows|top -j -n 1 -l 0 kernel.txt"
	"sites|diff -j -a ext-a.txt ext-b.txt"
	"rows|query -j ext-a.txt"
	"leaks|leaks -j -d 10 leaks-t1.txt leaks-l1.txt leaks-t2.txt leaks-l2.txt leaks-t3.txt leaks-l3.txt"
	"rows|compare -j -l 0 --ours cmp-ours.txt --theirs cmp-theirs.txt --baseline cmp-base.txt"
)

schema_tests() {
	local e key cmd n=0 name="json: every command's site rows valid against site-row.schema.json"

	for e in "${SCHEMA_COMMANDS[@]}"; do
		IFS='|' read -r key cmd <<<"$e"
		# shellcheck disable=SC2086
		"$TOOL" $cmd >"$TMP/schema-$n.json" 2>"$TMP/err" || echo "$cmd failed" >>"$TMP/err"
		echo "$key $TMP/schema-$n.json $cmd" >>"$TMP/schema-list"
		n=$((n + 1))
	done
	if [ ! -s "$TMP/err" ] && python3 - "$HERE/../schema/site-row.schema.json" \
		"$TMP/schema-list" >"$TMP/out" 2>&1 <<-'EOT'; then
	import json, sys
	schema = json.load(open(sys.argv[1]))
	TYPES = {"string": str, "integer": int, "number": (int, float), "null": type(None),
	         "object": dict, "boolean": bool}

	def errors(v, s):
	    """The keywords site-row.schema.json uses, checked without a library
	    (python3-jsonschema is not among the host tests' packages)."""
	    out = []
	    if "type" in s:
	        want = s["type"] if isinstance(s["type"], list) else [s["type"]]
	        if not any(isinstance(v, TYPES[w]) and not (w in ("integer", "number") and
	                   isinstance(v, bool)) for w in want):
	            out.append("%r is not of type %s" % (v, want))
	    if isinstance(v, str) and len(v) < s.get("minLength", 0):
	        out.append("%r is too short" % v)
	    if isinstance(v, (int, float)) and "minimum" in s and v < s["minimum"]:
	        out.append("%r is below %r" % (v, s["minimum"]))
	    if isinstance(v, dict):
	        out += ["%r is required" % k for k in s.get("required", []) if k not in v]
	        for k, sub in s.get("properties", {}).items():
	            if k in v:
	                out += errors(v[k], sub)
	        for k, sub in s.get("dependentSchemas", {}).items():
	            if k in v:
	                branch = "then" if not errors(v, sub["if"]) else "else"
	                out += errors(v, sub[branch])
	    return out

	try:
	    import jsonschema
	    jsonschema.Draft202012Validator.check_schema(schema)
	    library = jsonschema.Draft202012Validator(schema)
	except ImportError:
	    library = None
	ident = {}
	for entry in open(sys.argv[2]):
	    key, path, cmd = entry.rstrip("\n").split(" ", 2)
	    text = open(path, encoding="utf-8").read()
	    docs = [json.loads(l) for l in text.splitlines()] if cmd.startswith("top") else [json.loads(text)]
	    rows = [r for d in docs for r in d[key]]
	    assert rows, cmd
	    for r in rows:
	        assert not errors(r, schema), (cmd, r, errors(r, schema))
	        # the library, where installed, agrees
	        assert not library or not list(library.iter_errors(r)), \
	            (cmd, r, [e.message for e in library.iter_errors(r)])
	    if cmd.endswith(" ext-a.txt") or cmd.startswith("diff"):
	        ident[cmd.split()[0]] = {(r["site"], r["module"], r["func"], r["file"], r["line"]) for r in rows}
	    if cmd == "export -f json ext-b.txt":
	        assert isinstance(docs[0]["snapshot"]["uptime"], float), docs[0]["snapshot"]
	# ext-a.txt's sites, named alike by top, query and diff (which has
	# ext-b's too); query's ioctl rows have no function+offset location
	assert ident["top"] <= ident["diff"], ident
	assert {r for r in ident["query"] if r[0]} <= ident["top"], ident
	assert {r[1:] for r in ident["query"]} == {(m, f, fi, li) if s and fi else (m, f, None, None)
	                                          for s, m, f, fi, li in ident["top"]}, ident
	EOT
		ok "$name"
	else
		not_ok "$name" "$(cat "$TMP/err" "$TMP/out")"
	fi
}

# Each command's keys as format.rst's "JSON rows" lists them are those its
# -j writes: the object's (less command and the inputs read), its rows'
# (less the site's five), a part's in parentheses. Run in fixtures/.
JSON_KEYS_COMMANDS=(
	"diff -j -a ext-a.txt ext-b.txt"
	"group -j --by module ext-a.txt"
	"top -j -n 1 -l 0 ext-a.txt"
	"leaks -j -d 10 leaks-t1.txt leaks-l1.txt leaks-t2.txt leaks-l2.txt leaks-t3.txt leaks-l3.txt"
	"context -j --stacks stacks.txt --calls stacks-calls.txt all"
	"compare -j -l 0 --ours cmp-ours.txt --theirs cmp-theirs.txt --baseline cmp-base.txt"
	"query -j ext-a.txt"
	"ledger -j -l 0 --root ledger"
	"cgroup -j --root cgroup /app"
)

json_keys_tests() {
	local cmd n=0 name="json: each command's keys are format.rst's JSON rows list"

	: >"$TMP/keys-list"
	: >"$TMP/err"
	for cmd in "${JSON_KEYS_COMMANDS[@]}"; do
		# shellcheck disable=SC2086
		"$TOOL" $cmd >"$TMP/keys-$n.json" 2>/dev/null ||
			echo "$cmd failed" >>"$TMP/err"
		echo "$TMP/keys-$n.json $cmd" >>"$TMP/keys-list"
		n=$((n + 1))
	done
	if [ ! -s "$TMP/err" ] && python3 - "$HERE/../../../Documentation/format.rst" \
		"$TMP/keys-list" >"$TMP/out" 2>&1 <<-'EOT'; then
	import json, re, sys
	rst = open(sys.argv[1]).read()
	block = rst[rst.index("each command's other keys"):].split("\n\n")[1]
	doc = {}
	for entry in re.split(r"\n  (?=\w)", "\n" + block.strip("\n")):
	    if not entry.strip():
	        continue
	    cmd, text = entry.strip().split(None, 1)
	    text = " ".join(text.split())
	    obj, _, rows = text.rpartition("; ")
	    key, _, fields = rows.partition(": ")
	    parts = dict(re.findall(r"(\w+) \([^:]*: ([^)]*)\)", fields))
	    fields = re.sub(r"\([^)]*\)", "", fields)
	    doc[cmd] = (set(obj.split()), key, set(fields.split()),
	                {k: set(v.split()) for k, v in parts.items()})
	SITE = {"site", "module", "func", "file", "line"}
	INPUTS = {"command", "source", "a", "b", "ours", "theirs", "baseline"}
	bad = []
	for entry in open(sys.argv[2]):
	    path, cmd = entry.rstrip("\n").split(" ", 1)
	    c = cmd.split()[0]
	    if c not in doc:
	        bad.append("%s: not in format.rst" % c)
	        continue
	    obj, key, fields, parts = doc[c]
	    d = json.loads(open(path).read())
	    rows = d.get(key)
	    if not rows:
	        bad.append("%s: no %r rows to check" % (cmd, key))
	        continue
	    got = set(d) - INPUTS - {key}
	    if got != obj:
	        bad.append("%s: object keys %s, format.rst %s" % (c, sorted(got), sorted(obj)))
	    got = set().union(*(set(r) for r in rows)) - SITE
	    if got != fields:
	        bad.append("%s: %s keys %s, format.rst %s" % (c, key, sorted(got), sorted(fields)))
	    for p, want in parts.items():
	        items = [i for r in rows for i in r[p]]
	        got = set().union(*(set(i) for i in items)) if items else None
	        if got != want:
	            bad.append("%s: %s keys %s, format.rst %s" % (c, p, got, sorted(want)))
	print("\n".join(bad))
	sys.exit(1 if bad else 0)
	EOT
		ok "$name"
	else
		not_ok "$name" "$(cat "$TMP/err" "$TMP/out")"
	fi
}
