# SPDX-License-Identifier: GPL-2.0
# sanitize-tests.sh - the tool built with UBSan (every check fatal) and
# ASan (leaks checked at exit) runs the commands of stdin-tests.sh, the
# ledger, and every command of hostile-tests.sh on two tables it refuses,
# without a runtime error, a memory error or a leak. Sourced by run.sh
# after stdin-tests.sh and hostile-tests.sh, run in fixtures/.

sanitize_tests() {
	local src=$HERE/.. bin=$TMP/aie-sanitized e file cmd failed=()
	local name="sanitizers: every command that reads a file, and the ledger, without undefined behaviour, memory error or leak"

	if ! cc -O1 -g -fsanitize=undefined,address -fno-sanitize-recover=undefined \
		-std=gnu11 -D_GNU_SOURCE -I"$src/../../include" -I"$src/../../module/lib" \
		"$src"/*.c "$src/../../module/lib/ctl.c" -o "$bin" \
		-ldw -lelf -lncursesw -ltinfo -lm 2>"$TMP/err"; then
		not_ok "$name" "the sanitized build failed" "$(cat "$TMP/err")"
		return
	fi
	for e in "${STDIN_COMMANDS[@]}" "ledger|ledger --root @" \
		"ledger|ledger -j -l 0 --root @"; do
		IFS='|' read -r file cmd <<<"$e"
		# shellcheck disable=SC2086
		ASAN_OPTIONS=detect_leaks=1 "$bin" ${cmd//@/$file} >/dev/null 2>"$TMP/err"
		if grep -q 'runtime error\|Sanitizer' "$TMP/err"; then
			failed+=("$cmd with $file: $(grep -m 3 'runtime error\|Sanitizer\|#[0-4] ' "$TMP/err")")
		fi
	done
	for file in hostile-huge.txt bad-nul.txt; do
		for cmd in "${HOSTILE_COMMANDS[@]}"; do
			# shellcheck disable=SC2086
			ASAN_OPTIONS=detect_leaks=1 "$bin" ${cmd//@/$file} >/dev/null 2>"$TMP/err"
			if grep -q 'runtime error\|Sanitizer' "$TMP/err"; then
				failed+=("$cmd with $file: $(grep -m 3 'runtime error\|Sanitizer\|#[0-4] ' "$TMP/err")")
			fi
		done
	done
	if [ ${#failed[@]} = 0 ]; then
		ok "$name"
	else
		not_ok "$name" "${failed[@]}"
	fi
}
