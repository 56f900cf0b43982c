#!/bin/sh
# Colours in the colon forms (ITU T.416) and attributes that are never closed: 256-colour and
# truecolor with colons, undercurl (4:3), underline colour (58), then a line break with everything
# still open. Before the fix they bled into the dashboard's header and the rows below the pane.
e=$(printf '\033')
i=0
while [ $i -lt "${COLON_LINES:-200}" ]; do
	printf '%s[38:5:%dm256 colon %d %s[48:2::20:40:%dmtruecolor bg %s[4:3mundercurl %s[58:2::255:0:0mred underline colour\n' "$e" $((i % 256)) $i "$e" $((i % 256)) "$e" "$e"
	printf '%s[1;38;5;196;58;5;21mbold red, blue underline colour %s[73msuperscript?\n' "$e" "$e"
	i=$((i+1))
done
sleep "${COLON_SLEEP:-0}"
