#!/bin/sh
# 200k lines of ~500 characters thick with SGR colours, OSC 8 hyperlinks and CSI cursor moves,
# plus, now and then, sequences that would wreck the dashboard if they reached the terminal:
# clear screen, leave the alternate screen, scroll region, hide cursor, title, clipboard
# (OSC 52), reset (RIS), status report (DSR, which makes the terminal type into stdin).
LINES=${ESCAPE_LINES:-200000}
awk -v n="$LINES" 'BEGIN {
	e = sprintf("%c", 27); b = sprintf("%c", 7)
	nasty[0] = e "[2J" e "[H"
	nasty[1] = e "[?1049l"
	nasty[2] = e "[5;10r"
	nasty[3] = e "[?25l"
	nasty[4] = e "]0;PWNED TITLE" b
	nasty[5] = e "]52;c;cHduZWQ=" b
	nasty[6] = e "c"
	nasty[7] = e "[6n"
	for (i = 1; i <= n; i++) {
		line = ""
		for (k = 0; k < 5; k++) {
			line = line e "[3" (k % 8) ";1m" "col" k e "[0m "
			line = line e "]8;;https://example.invalid/" i "/" k e "\\" "link" k e "]8;;" e "\\" " "
			line = line e "[" (k + 1) ";" (k * 7 + 1) "H" e "[2K" e "[1A" e "[40C"
			line = line "text-" i "-" k " "
		}
		if (i % 1000 == 0) line = line nasty[int(i / 1000) % 8]
		printf "%s\n", line
	}
}'
