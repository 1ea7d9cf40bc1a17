# SPDX-License-Identifier: GPL-2.0
# sanitize-tests.sh - the tool built with UBSan (every check fatal) runs
# the commands of stdin-tests.sh and the ledger without a runtime error.
# Sourced by run.sh after stdin-tests.sh, run in fixtures/.

sanitize_tests() {
	local src=$HERE/.. bin=$TMP/aie-ubsan e file cmd failed=()
	local name="ubsan: every command that reads a file, and the ledger, without undefined behaviour"

	if ! cc -O1 -g -fsanitize=undefined -fno-sanitize-recover=undefined \
		-std=gnu11 -D_GNU_SOURCE -I"$src/../../include" -I"$src/../../module/lib" \
		"$src"/*.c "$src/../../module/lib/ctl.c" -o "$bin" \
		-ldw -lelf -lncursesw -ltinfo -lm 2>"$TMP/err"; then
		not_ok "$name" "the UBSan build failed" "$(cat "$TMP/err")"
		return
	fi
	for e in "${STDIN_COMMANDS[@]}" "ledger|ledger --root @" \
		"ledger|ledger -j -l 0 --root @"; do
		IFS='|' read -r file cmd <<<"$e"
		# shellcheck disable=SC2086
		"$bin" ${cmd//@/$file} >/dev/null 2>"$TMP/err"
		if grep -q 'runtime error' "$TMP/err"; then
			failed+=("$cmd with $file: $(grep 'runtime error' "$TMP/err")")
		fi
	done
	if [ ${#failed[@]} = 0 ]; then
		ok "$name"
	else
		not_ok "$name" "${failed[@]}"
	fi
}
