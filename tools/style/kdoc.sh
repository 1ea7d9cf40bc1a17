#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kdoc.sh - the module's comments, checked (Documentation/process.rst), one
# TAP line per file of module/: "ok - kdoc: PATH", or "not ok - kdoc: PATH"
# and its findings as "# " lines. Exits non-zero when a file is not ok.
# Arguments, when given, name the files to check instead of all of module/.
#
# What a file must have:
# - a kernel-doc comment ("/**", first line "name() - Summary.") right
#   above every function another file can call: those of a .c file that
#   are not static, and the static inline functions of a header other
#   than the compat headers (module/compat*.h mirror the kernel's names);
# - no warning from the kernel's scripts/kernel-doc -none -Wall;
# - summaries in the imperative: the first word of a kernel-doc summary,
#   and of any comment right above a static function, is a verb such as
#   "Count", not "The", "A", "Whether", "What", "This" or "Counts";
# - in a .c file, an opening comment that says what the file is for and
#   has a "Notes on locking" paragraph;
# - no comment naming a .c or .h file that is neither the project's nor
#   the kernel's (a stale name: a file renamed or merged away).
#
# scripts/kernel-doc comes from Debian's linux-source-6.12 tarball, as
# checkpatch.pl does (tools/style/checkpatch.sh), extracted once into
# ${AIE_CACHE:-<top>/.cache}/checkpatch.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cache=${AIE_CACHE:-$top/.cache}/checkpatch
tarball=${AIE_KSRC_TAR:-/usr/src/linux-source-6.12.tar.xz}

if [ ! -e "$cache/.extracted-kdoc" ]; then
	if [ ! -f "$tarball" ]; then
		echo "error: $tarball missing: apt-get install linux-source-6.12" >&2
		exit 2
	fi
	mkdir -p "$cache"
	tar -C "$cache" --strip-components=1 -xf "$tarball" \
		linux-source-6.12/scripts/kernel-doc || {
		echo "error: cannot extract kernel-doc from $tarball" >&2
		exit 2
	}
	# The kernel's file names, for the stale-name check.
	tar -tf "$tarball" | sed -n 's|.*/\([^/]*\.[ch]\)$|\1|p' |
		LC_ALL=C sort -u >"$cache/kernel-files"
	touch "$cache/.extracted-kdoc"
fi

files() {
	if [ $# -gt 0 ]; then
		printf '%s\n' "$@"
	elif git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git -C "$top" ls-files --cached --others --exclude-standard \
			-- 'module/*.[ch]' | while read -r f; do
				[ -f "$top/$f" ] && echo "$f"
			done
	else
		(cd "$top" && find module -name '*.[ch]')
	fi | grep -v '\.mod\.c$' | LC_ALL=C sort -u
}

# The names of every .c and .h file of the project and of the kernel, for
# stale mentions.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$top" && find module include selftests tools -name '*.[ch]' \
	-printf '%f\n'; cat "$cache/kernel-files") | LC_ALL=C sort -u \
	>"$work/known"

# check.pl FILE: the findings for one file, a line each; none when clean.
read -r -d '' check <<'PERL' || true
use strict;
use warnings;

my ($path, $known) = @ARGV;
open(my $kh, '<', $known) or die "$known: $!";
my %known = map { chomp; $_ => 1 } <$kh>;
close($kh);
open(my $fh, '<', $path) or die "$path: $!";
my @l = <$fh>;
close($fh);
chomp @l;
my $hdr = $path =~ /\.h$/;
my $compat = $path =~ m{(^|/)compat[^/]*\.h$};
my @bad;

# Words that open a description rather than an order, and -s words that
# are no third-person verbs.
my %notverb = map { $_ => 1 } qw(The A An Whether What This These It Its If
	When Which Where Called Used Only Each Every One How);
my %sword = map { $_ => 1 } qw(Process Access Address Pass Miss Bias Alias
	Toss Cross Dismiss Compress Express Discuss Focus);

sub imperative {
	my ($what, $line, $text) = @_;
	my ($w) = $text =~ /^\s*([A-Za-z][A-Za-z-]*)/;
	return unless defined $w;
	if ($notverb{$w} || ($w =~ /[^s]s$/ && !$sword{$w})) {
		push @bad, "$line: $what opens with \"$w\": say what it does, in the imperative";
	}
}

# The comment block that ends on line $i - 1 (0-based), if any: its first
# line index, or -1.
sub comment_above {
	my ($i) = @_;
	return -1 if $i == 0 || $l[$i - 1] !~ m{^\s*\*/\s*$|^\s*/\*.*\*/\s*$};
	my $j = $i - 1;
	$j-- while $j > 0 && $l[$j] !~ m{^\s*/\*};
	return $j;
}

for (my $i = 0; $i < @l; $i++) {
	my $s = $l[$i];
	# A definition starts at column 0 with a type, has the name and an
	# opening parenthesis, and is followed by "{" at column 0 before any
	# ";" closes it as a declaration.
	next unless $s =~ /^[a-z_][A-Za-z0-9_ \*]*?\b([a-z_][a-z0-9_]*)\(/;
	my $name = $1;
	next if $s =~ /^(return|if|for|while|switch|do|else|typedef|struct \w+ \{)\b/;
	next if $s =~ /^[A-Z_]+\(/;
	my ($k, $def) = ($i, 0);
	for (; $k < @l && $k < $i + 12; $k++) {
		if ($l[$k] =~ /^\{/) { $def = 1; last; }
		last if $l[$k] =~ /;\s*$/;
	}
	next unless $def;
	my $static = $s =~ /^static\b/;
	my $inline = $s =~ /\binline\b/;
	my $exported = $hdr ? ($inline && !$compat) : !$static;
	my $j = comment_above($i);
	my $n = $i + 1;
	if ($exported) {
		if ($j < 0 || $l[$j] !~ m{^/\*\*\s*$}) {
			push @bad, "$n: $name(): no kernel-doc comment above it";
			next;
		}
		my ($fn, $sum) = $l[$j + 1] =~ /^ \* ([a-z_][a-z0-9_]*)\(\) - (.*)$/;
		if (!defined $fn) {
			push @bad, "$n: $name(): kernel-doc's first line is not \" * $name() - Summary\"";
		} elsif ($fn ne $name) {
			push @bad, "$n: $name(): kernel-doc names $fn()";
		} else {
			imperative("$name()'s summary", $n, $sum);
		}
	} elsif ($j >= 0) {
		my $t = $l[$j];
		$t =~ s{^\s*/\*\*?\s*}{};
		$t = $l[$j + 1] =~ s/^\s*\*\s?//r if $t eq '' && $j + 1 < $i;
		$t =~ s/^\Q$name\E\(\) - //;
		imperative("$name()'s comment", $n, $t);
	}
}

# The opening comment of a .c file: after the SPDX line, up to its "*/".
if (!$hdr) {
	my $i = 0;
	$i++ while $i < @l && $l[$i] =~ m{^// SPDX|^\s*$};
	if ($i >= @l || $l[$i] !~ m{^/\*}) {
		push @bad, "1: no opening comment saying what the file is for";
	} else {
		my $open = '';
		for (; $i < @l; $i++) {
			$open .= "$l[$i]\n";
			last if $l[$i] =~ m{\*/};
		}
		push @bad, "1: the opening comment has no \"Notes on locking\""
			unless $open =~ /Notes on locking/;
	}
}

# Stale file names in comments (and nowhere else: #include lines are the
# compiler's to check).
my $in = 0;
for (my $i = 0; $i < @l; $i++) {
	my $s = $l[$i];
	my $c = '';
	if ($in) {
		$c = $s;
		$in = 0 if $s =~ m{\*/};
	} elsif ($s =~ m{/\*(.*)$}) {
		$c = $1;
		$in = 1 unless $c =~ m{\*/};
	} elsif ($s =~ m{//(.*)$}) {
		$c = $1;
	}
	next if $s =~ /^#\s*include/;
	while ($c =~ /\b([A-Za-z0-9_]+\.[ch])\b/g) {
		push @bad, ($i + 1) . ": names $1, which is no file of the project or the kernel"
			unless $known{$1};
	}
}

print "$_\n" for @bad;
PERL

fail=0 n=0
while read -r f; do
	[ -n "$f" ] || continue
	n=$((n + 1))
	out=$(perl -e "$check" "$top/$f" "$work/known" 2>&1 || true)
	kd=$(perl "$cache/scripts/kernel-doc" -none -Wall "$top/$f" 2>&1 |
		sed "s|$top/||" || true)
	out=$(printf '%s\n%s' "$out" "$kd" | sed '/^$/d')
	if [ -z "$out" ]; then
		echo "ok - kdoc: $f"
		continue
	fi
	fail=$((fail + 1))
	echo "not ok - kdoc: $f"
	printf '%s\n' "$out" | sed 's/^/# /'
done < <(files "$@")
echo "# kdoc: $n files, $fail not ok"
[ "$n" -gt 0 ] || { echo "error: no files to check" >&2; exit 2; }
[ "$fail" -eq 0 ]
