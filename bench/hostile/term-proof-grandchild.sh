#!/bin/sh
# Forks a grandchild that ignores SIGTERM and prints nothing after its first line, then prints a
# line every 0.1 s itself. When hermes-delegate is killed with SIGKILL, the agent dies of SIGPIPE
# at its next line; the grandchild stays in the agent's process group and lives on.
sh -c 'trap "" TERM; echo "grandchild $$ ignores SIGTERM"; exec sleep "${GRANDCHILD_SLEEP:-3600}"' &
echo "agent $$ ready"
while :; do
	echo "agent $$ still working"
	sleep 0.1
done
