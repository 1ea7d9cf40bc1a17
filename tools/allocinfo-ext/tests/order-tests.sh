# SPDX-License-Identifier: GPL-2.0
# order-tests.sh - -s KEY and -r in top, group, diff, query and leaks:
# the same keys mean the same figures, -r turns the whole list over, a key
# a command's rows lack is refused naming those they have. Sourced by
# run.sh, run in fixtures/.

# expect_rows NAME WANT CMD...: exit 0, the rows' last field (the site or
# group) in order WANT (one line, space-separated), stderr empty.
expect_rows() {
	local name=$1 want=$2 got
	shift 2
	got=$("$@" 2>"$TMP/err" | grep -v '^#' | awk '{ print $NF }' | tr '\n' ' ')
	if [ "${PIPESTATUS[0]}" = 0 ] && [ "${got% }" = "$want" ] && [ ! -s "$TMP/err" ]; then
		ok "$name"
	else
		not_ok "$name" "command: $*" "got:  ${got% }" "want: $want" "$(cat "$TMP/err")"
	fi
}

order_tests() {
	local r l

	# group: vmlinux 4 sites 324096 B 83 calls; virtio_net 2, 8192, 2;
	# ext4 1, 4096, 1; nf_conntrack 1, 1024, 8 calls
	expect_rows "order: group -s bytes, the default" "vmlinux virtio_net ext4 nf_conntrack" \
		"$TOOL" group --by module ext-a.txt
	expect_rows "order: group -s calls" "vmlinux nf_conntrack virtio_net ext4" \
		"$TOOL" group --by module -s calls ext-a.txt
	expect_rows "order: group -s sites -r, ties by bytes, all turned over" \
		"nf_conntrack ext4 virtio_net vmlinux" \
		"$TOOL" group --by module -s sites -r ext-a.txt
	expect_rows "order: group -r -l 2, the two smallest" "nf_conntrack ext4" \
		"$TOOL" group --by module -r -l 2 ext-a.txt
	expect_err "order: group -s growth refused, its keys named" 2 \
		"allocinfo-ext: cannot sort by \"growth\": expected bytes, calls, slack or sites
Try 'allocinfo-ext group --help'." "$TOOL" group --by module -s growth ext-a.txt

	# diff A -> B: dup_task_struct +32768 (+8 calls, 32768 in B),
	# alloc_pipe_info +16384 (+4, 262144), add_recvbuf_small +640 (+5, 640),
	# ext4_fill_super -4096 (-1, 0), kstrdup -8192 (-2, 4096)
	expect_rows "order: diff -s growth, the default" \
		"func:dup_task_struct func:alloc_pipe_info func:add_recvbuf_small func:ext4_fill_super func:kstrdup" \
		"$TOOL" diff ext-a.txt ext-b.txt
	expect_rows "order: diff -s calls" \
		"func:dup_task_struct func:add_recvbuf_small func:alloc_pipe_info func:ext4_fill_super func:kstrdup" \
		"$TOOL" diff -s calls ext-a.txt ext-b.txt
	expect_rows "order: diff -s bytes -r, the smallest in B first" \
		"func:ext4_fill_super func:add_recvbuf_small func:kstrdup func:dup_task_struct func:alloc_pipe_info" \
		"$TOOL" diff -s bytes -r ext-a.txt ext-b.txt
	expect_rows "order: diff -r -l 2, the two that shrank most" "func:kstrdup func:ext4_fill_super" \
		"$TOOL" diff -r -l 2 ext-a.txt ext-b.txt
	expect_err "order: diff -s slack refused, its keys named" 2 \
		"allocinfo-ext: cannot sort by \"slack\": expected bytes, calls or growth
Try 'allocinfo-ext diff --help'." "$TOOL" diff -s slack ext-a.txt ext-b.txt

	# query: as read by default; -r the table upside down
	expect_rows "order: query, as read" \
		"func:alloc_pipe_info func:kstrdup func:ext4_fill_super func:nf_ct_ext_add func:add_recvbuf_small func:__alloc_skb func:odd_name func:virtnet_probe" \
		"$TOOL" query ext-a.txt
	expect_rows "order: query -r, as read turned over" \
		"func:virtnet_probe func:odd_name func:__alloc_skb func:add_recvbuf_small func:nf_ct_ext_add func:ext4_fill_super func:kstrdup func:alloc_pipe_info" \
		"$TOOL" query -r ext-a.txt
	expect_rows "order: query -s calls" \
		"func:alloc_pipe_info func:__alloc_skb func:nf_ct_ext_add func:odd_name func:kstrdup func:virtnet_probe func:ext4_fill_super func:add_recvbuf_small" \
		"$TOOL" query -s calls ext-a.txt
	expect_rows "order: query -s bytes -r -l 3" \
		"func:add_recvbuf_small func:odd_name func:nf_ct_ext_add" \
		"$TOOL" query -s bytes -r -l 3 ext-a.txt
	expect_err "order: query -s growth refused, its keys named" 2 \
		"allocinfo-ext: cannot sort by \"growth\": expected bytes or calls
Try 'allocinfo-ext query --help'." "$TOOL" query -s growth ext-a.txt

	# top: -r on the main listing, the header says so
	"$TOOL" top -b -n 1 -r -l 3 ext-a.txt >"$TMP/out" 2>"$TMP/err"
	if [[ "$(head -n 1 "$TMP/out")" == *" - sorted by bytes, smallest first - every 3.0s" ]] &&
		[ "$(tail -n 3 "$TMP/out" | awk '{ print $NF }' | tr '\n' ' ')" = \
			"func:add_recvbuf_small func:odd_name func:nf_ct_ext_add " ] &&
		[ ! -s "$TMP/err" ]; then
		ok "order: top -r, the smallest first, said in the header"
	else
		not_ok "order: top -r, the smallest first, said in the header" "$(cat "$TMP/out" "$TMP/err")"
	fi

	# leaks: pages_fn's oldest object made the older one (32 s against 25)
	r=$TMP/order-leaks
	mkdir -p "$r"
	for l in 1 2 3; do
		cp "leaks-t$l.txt" "$r/t$l"
		sed "s/^\(pages_fn.*type:page oldest:\)\([0-9]*\)/\1$((l * 5 + 17))000000000/" \
			"leaks-l$l.txt" >"$r/l$l"
	done
	set -- "$r/t1" "$r/l1" "$r/t2" "$r/l2" "$r/t3" "$r/l3"
	expect_rows "order: leaks -s growth, the default" "type:slab type:page" \
		"$TOOL" leaks -d 10 "$@"
	expect_rows "order: leaks -s oldest" "type:page type:slab" \
		"$TOOL" leaks -d 10 -s oldest "$@"
	expect_rows "order: leaks -s bytes -r" "type:page type:slab" \
		"$TOOL" leaks -d 10 -s bytes -r "$@"
	expect_err "order: leaks -s calls refused, its keys named" 2 \
		"allocinfo-ext: cannot sort by \"calls\": expected bytes, growth or oldest
Try 'allocinfo-ext leaks --help'." "$TOOL" leaks -s calls "$@"
}

# In a terminal, I turns the order over and back, as -r does.
order_screen_test() {
	local name="order: top's I key reverses the order, and back" good=0

	if top_session "$name" "$TOOL top -d 0.5 ext-a.txt" &&
		tmux_first_row alloc_pipe_info &&
		top_keys I && wait_until 10 tmux_screen_has "sorted by bytes, smallest first" &&
		tmux_first_row virtio_net.c:900 &&
		top_keys I && wait_until 10 tmux_screen_lacks "smallest first" &&
		tmux_first_row alloc_pipe_info; then
		good=1
	fi
	top_session_end "$name" "$good"
}
