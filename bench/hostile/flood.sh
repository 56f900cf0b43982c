#!/bin/sh
# Floods numbered ~90-character lines as fast as the reader drains them, until killed
# (FLOOD_LINES=N for a finite flood). Numbered, so every frame of a pane differs.
exec awk -v n="${FLOOD_LINES:-0}" 'BEGIN {
	for (i = 1; n == 0 || i <= n; i++)
		printf "%09d ▸ step output line from a busy subagent, roughly agent-shaped text 0123456789\n", i
}'
