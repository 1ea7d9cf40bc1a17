#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh - host-side tests of allocinfo-ext; no VM, no module needed.
#
# Parsing (both formats, snapshots, malformed input), diff, group, export
# and top against exact expected outputs of small fixtures; hostile input
# (names that are not UTF-8, overflowing sums, a NUL, a directory, a full
# disk) refused or written validly, read back by promtool and Python; ctl and
# annotate (DWARF of an ET_REL object built here with -g); report drawn
# by headless Chromium; export scraped by a real node_exporter and
# Prometheus on loopback ports. Prints one TAP line per test,
# "ok - host: <name>" or "not ok - host: <name>" with "# " lines after it,
# and exits 1 when any failed. AIE_TOOL overrides the binary tested.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TOOL=${AIE_TOOL:-$HERE/../allocinfo-ext}
FIX=$HERE/fixtures
EXP=$HERE/expected
MAN=$HERE/../../../Documentation/allocinfo-ext.1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
FAILED=0

ok() { echo "ok - host: $1"; }
not_ok() {
	echo "not ok - host: $1"
	shift
	printf '%s\n' "$@" | head -n 30 | sed 's/^/#   /'
	FAILED=1
}

# expect_out NAME WANT CMD...: exit 0, stdout exactly WANT, stderr empty.
expect_out() {
	local name=$1 want=$2
	shift 2
	if "$@" >"$TMP/out" 2>"$TMP/err" && cmp -s "$want" "$TMP/out" &&
		[ ! -s "$TMP/err" ]; then
		ok "$name"
	else
		not_ok "$name" "command: $*" "$(cat "$TMP/err")" \
			"$(diff -u "$want" "$TMP/out")"
	fi
}

# expect_err NAME STATUS MESSAGE CMD...: exit STATUS, no stdout, stderr MESSAGE.
expect_err() {
	local name=$1 status=$2 msg=$3 rc
	shift 3
	"$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ "$rc" = "$status" ] && [ ! -s "$TMP/out" ] &&
		[ "$(cat "$TMP/err")" = "$msg" ]; then
		ok "$name"
	else
		not_ok "$name" "command: $*" "exit $rc, want $status" \
			"stderr: $(cat "$TMP/err")" "want:   $msg"
	fi
}

# wait_until SECONDS CMD...: run CMD every half second until it succeeds.
wait_until() {
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ "$SECONDS" -ge "$end" ] && return 1
		sleep 0.5
	done
}

# make install-tools honours DESTDIR and PREFIX.
install_tests() {
	local d=$TMP/inst name="install: DESTDIR and PREFIX, binary and man page"

	if make -s -C "$HERE/../../.." install-tools DESTDIR="$d" PREFIX=/usr \
		>"$TMP/out" 2>&1 &&
		[ "$("$d/usr/bin/allocinfo-ext" --version)" = "allocinfo-ext 1.0" ] &&
		cmp -s "$d/usr/share/man/man1/allocinfo-ext.1" "$MAN"; then
		ok "$name"
	else
		not_ok "$name" "$(cat "$TMP/out")" "$(find "$d" 2>&1)"
	fi
}

# make install-systemd: the services run the installed binary, the units
# pass systemd-analyze verify without a word (it exits 0 on warnings), the
# udev rule is installed as it is in the tree.
systemd_tests() {
	local p=$TMP/sd u name="install-systemd: export's service and timer pass systemd-analyze verify"

	u=$p/lib/systemd/system
	if ! make -s -C "$HERE/.." install install-systemd PREFIX="$p" >"$TMP/out" 2>&1; then
		not_ok "$name" "$(cat "$TMP/out")"
		return
	fi
	if MANPATH=$p/share/man systemd-analyze verify "$u/allocinfo-ext-export.timer" \
		"$u/allocinfo-ext-export.service" >"$TMP/out" 2>&1 && [ ! -s "$TMP/out" ] &&
		grep -qxF "ExecStart=$p/bin/allocinfo-ext export --format prometheus \$EXPORT_ARGS -o \${TEXTFILE_DIR}/allocinfo_ext.prom" \
			"$u/allocinfo-ext-export.service" &&
		cmp -s "$p/share/allocinfo-ext/prometheus/allocinfo-ext.rules.yml" \
			"$HERE/../prometheus/allocinfo-ext.rules.yml"; then
		ok "$name"
	else
		not_ok "$name" "$(cat "$TMP/out")" "$(grep ExecStart "$u/allocinfo-ext-export.service")"
	fi
	name="install-systemd: annotate's service and timer pass systemd-analyze verify, the udev rule is installed"
	if MANPATH=$p/share/man systemd-analyze verify "$u/allocinfo-ext-annotate.timer" \
		"$u/allocinfo-ext-annotate.service" >"$TMP/out" 2>&1 && [ ! -s "$TMP/out" ] &&
		grep -qxF "ExecStart=$p/bin/allocinfo-ext annotate" \
			"$u/allocinfo-ext-annotate.service" &&
		cmp -s "$p/lib/udev/rules.d/60-allocinfo-ext.rules" \
			"$HERE/../systemd/60-allocinfo-ext.rules"; then
		ok "$name"
	else
		not_ok "$name" "$(cat "$TMP/out")" "$(grep ExecStart "$u/allocinfo-ext-annotate.service")" \
			"$(find "$p/lib" -type f)"
	fi
}

# make CFLAGS=... replaces the optimisation, keeps what the build needs.
make_cflags_test() {
	local name="make: CFLAGS on the command line keeps the warnings and includes"

	make -s -n -B -C "$HERE/.." CFLAGS=-O1 main.o tests/unit.o >"$TMP/out" 2>&1
	if grep -q -- '-O1 -Wall -Wextra -Werror -std=gnu11 .*-I../../include .*-c -o main.o main.c$' "$TMP/out" &&
		grep -q -- '-O1 -Wall .* -I\. .*-c -o tests/unit.o tests/unit.c$' "$TMP/out"; then
		ok "$name"
	else
		not_ok "$name" "$(cat "$TMP/out")"
	fi
}

. "$HERE/parse-tests.sh"
. "$HERE/cmd-tests.sh"
. "$HERE/annotate-tests.sh"
. "$HERE/report-tests.sh"
. "$HERE/prometheus-tests.sh"
. "$HERE/hostile-tests.sh"
. "$HERE/options-tests.sh"
. "$HERE/ledger-tests.sh"
. "$HERE/cgroup-tests.sh"
. "$HERE/output-tests.sh"
. "$HERE/stdin-tests.sh"
. "$HERE/sanitize-tests.sh"
. "$HERE/schema-tests.sh"
. "$HERE/order-tests.sh"
. "$HERE/vmrun-tests.sh"

cd "$FIX" || exit 1
parse_tests
snapshot_tests
diff_tests
group_tests
export_tests
top_tests
module_filter_tests
ctl_tests
context_tests
leaks_tests
ledger_tests
cgroup_tests
compare_tests
query_tests
order_tests
order_screen_test
json_tests
schema_tests
json_keys_tests
options_tests
man_options_tests
vocab_tests
hostile_tests
output_tests
stdin_tests
help_tests
sanitize_tests
annotate_tests
annotate_srctree_tests
report_tests
prometheus_tests
prom_rules_tests
prom_name_tests
prom_timestamp_tests
install_tests
if command -v systemd-analyze >/dev/null; then
	systemd_tests
else
	ok "install-systemd: export's units: systemd-analyze verify # SKIP no systemd-analyze"
	ok "install-systemd: annotate's units: systemd-analyze verify # SKIP no systemd-analyze"
fi
make_cflags_test
make_run_tests
"$HERE/unit" || FAILED=1
exit $FAILED
