#!/bin/sh
# Forks a grandchild that calls setsid, leaving the agent's process group (a known limit of
# group kills), writes its pid to $HOSTILE_COPY_DIR/escaped.pid, and exits at once itself.
# ESCAPE_KEEP_PIPE=1 keeps the grandchild on our stdout (the runner waits for EOF on it);
# otherwise it detaches its output too and is invisible.
dir=${HOSTILE_COPY_DIR:-/tmp}
if [ "${ESCAPE_KEEP_PIPE:-0}" = 1 ]; then
	setsid sh -c 'echo "escaped grandchild $$ in its own session"; echo $$ > "$1"; i=0; while [ $i -lt ${ESCAPE_SLEEP:-60} ]; do echo "grandchild $$ still alive ($i s)"; sleep 1; i=$((i+1)); done' sh "$dir/escaped.pid" &
else
	setsid sh -c 'echo $$ > "$1"; exec sleep ${ESCAPE_SLEEP:-60}' sh "$dir/escaped.pid" </dev/null >/dev/null 2>&1 &
fi
echo "leader $$ forked an escaping grandchild; leader exits now"
sleep 1
