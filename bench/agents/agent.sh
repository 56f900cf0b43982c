#!/bin/sh
# The stand-in agent every tool in the suite runs, so that they all watch the same processes:
# hermes-delegate calls it as `hermes chat -q <goal> ...`, mprocs, xargs and GNU parallel with
# the same arguments. The goal is `<kind>-<n>`. With BENCH_STATE set, the agent records its pid
# (it leads its process group under every tool) in $BENCH_STATE/pid/<goal> and, when its work is
# done, touches $BENCH_STATE/done/<goal>: the one "finished" signal that works for a dashboard
# that stays open (mprocs) as well as for one that exits.
goal=
while [ $# -gt 0 ]; do
	case $1 in
		-q) goal=$2; shift ;;
	esac
	shift
done
# Anything else (hermes-delegate's `--version` / `chat --help` probe) gets a quiet success.
[ -n "$goal" ] || exit 0
case $goal in
	*[!a-z0-9-]*) echo "agent: bad goal" >&2; exit 2 ;;
esac
state=${BENCH_STATE:-}
[ -z "$state" ] || echo $$ > "$state/pid/$goal"
line="▸ step output line from a busy subagent, roughly agent-shaped text 0123456789 abcdef"
finish() { [ -z "$state" ] || : > "$state/done/$goal"; }
case ${goal%-*} in
	trivial) echo ok ;;
	flood) yes "$line" | head -n "${BENCH_FLOOD_LINES:-100000}" ;;
	endless) exec yes "$line" ;;
	trickle) python3 "$(dirname "$0")/trickle.py" "${BENCH_TRICKLE_RATE:-20}" "${BENCH_TRICKLE_S:-20}" ;;
	idle) exec sleep 1000000 ;;
	# Says something (a pane's worth), counts as done, then stays quiet and running: a batch to
	# attach to whose panes all have lines.
	burst) yes "$line" | head -n "${BENCH_BURST_LINES:-40}"; finish; exec sleep 1000000 ;;
	# Leaves on SIGTERM (sh's default); the sleep child shares the group, so only a signal to
	# the whole group ends both.
	term) sleep 1000000 & wait; exit 143 ;;
	# Ignores SIGTERM, and so does its child (an ignored signal stays ignored across exec).
	termignore) trap '' TERM; sleep 1000000 & wait ;;
	*) echo "agent: unknown kind in '$goal'" >&2; exit 2 ;;
esac
status=$?
finish
exit $status
