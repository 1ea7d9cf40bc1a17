# SPDX-License-Identifier: GPL-2.0
# report-tests.sh - the SVG report: well-formed, a tooltip per site, and
# drawn by Debian's headless Chromium into a screenshot that is not blank.
# Sourced by run.sh.

# chromium_shot SVG PNG: a 1200x800 screenshot, within 60 seconds.
chromium_shot() {
	local profile=$TMP/chromium
	mkdir -p "$profile"
	timeout 60 chromium --headless --no-sandbox --disable-gpu \
		--disable-background-networking --disable-component-update \
		--disable-sync --no-first-run --user-data-dir="$profile" \
		--screenshot="$2" --window-size=1200,800 "file://$1" \
		>"$TMP/chromium.log" 2>&1
}

report_tests() {
	local svg=$TMP/report.svg png=$TMP/report.png stat w h colours ink

	if ! "$TOOL" report -o "$svg" ext-b.txt 2>"$TMP/err"; then
		not_ok "report: writes the SVG" "$(cat "$TMP/err")"
		return
	fi
	if "$TOOL" report --svg "$TMP/report-o.svg" ext-b.txt 2>"$TMP/err" &&
		cmp -s "$svg" "$TMP/report-o.svg"; then
		ok "report: --svg, -o's old name, writes the same picture"
	else
		not_ok "report: --svg, -o's old name, writes the same picture" "$(cat "$TMP/err")"
	fi
	if python3 - "$svg" <<-'EOT'; then
	import sys, xml.etree.ElementTree as ET
	ns = '{http://www.w3.org/2000/svg}'
	root = ET.parse(sys.argv[1]).getroot()
	titles = [t.text for t in root.iter(ns + 'title')]
	# 8 sites hold memory, in 8 functions and 7 subsystems.
	assert len(titles) == 23, len(titles)
	tips = [t for t in titles if t.startswith('alloc_pipe_info+0x1a2/0x1f0 func:alloc_pipe_info\n')]
	assert tips == ['alloc_pipe_info+0x1a2/0x1f0 func:alloc_pipe_info\n262144 bytes (69.9%) in 64 calls\nslack 16384 bytes'], tips
	assert 'subsystem drivers/net\n8832 bytes (2.4%) in 7 calls, 2 sites\nslack 512 bytes' in titles
	assert any(t.startswith('lib/we"ird\\path,x.c:5 func:odd_name\n') for t in titles)
	EOT
		ok "report: well-formed SVG, one tooltip per rectangle with its figures"
	else
		not_ok "report: well-formed SVG, one tooltip per rectangle with its figures"
	fi
	if ! chromium_shot "$svg" "$png" || [ ! -s "$png" ]; then
		not_ok "report: Chromium draws it" "$(tail -n 5 "$TMP/chromium.log")"
		return
	fi
	[ -n "${AIE_REPORT_PNG:-}" ] && cp "$png" "$AIE_REPORT_PNG"
	read -r w h colours ink < <(python3 "$HERE/pngstat.py" "$png")
	if [ "$w" = 1200 ] && [ "$h" = 800 ] && [ "$colours" -ge 12 ] &&
		python3 -c "import sys; sys.exit(not float('$ink') >= 0.8)"; then
		ok "report: Chromium's screenshot is not blank ($colours colours, $ink inked)"
	else
		not_ok "report: Chromium's screenshot is not blank" "$w x $h, $colours colours, $ink inked"
	fi
}
