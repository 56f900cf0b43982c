#!/bin/sh
# Stand-in for `hermes`: runs the hostile agent named by the prompt (`-q binary` → binary.sh),
# so one --hermes-bin serves a whole batch of different misbehaviours. Other args are ignored.
here=$(dirname "$0")
name=
while [ $# -gt 0 ]; do
	case $1 in
		-q) name=$2; shift ;;
		-q*) name=${1#-q} ;;
	esac
	shift
done
# Only a plain word: the prompt is untrusted text, even in a benchmark.
case $name in
	*[!a-z0-9-]* | '') echo "dispatch: no hostile agent named '$name'" >&2; exit 2 ;;
esac
exec "$here/$name.sh"
