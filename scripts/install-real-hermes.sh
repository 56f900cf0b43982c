#!/usr/bin/env bash
# Installs the real Hermes Agent CLI, releases 0.19.0 and 0.20.0, into .cache/hermes/<version>/
# for the tests in test/hermes/ (test/helpers/real-hermes.ts finds them there, or takes the one
# binary named by HERMES_REAL_BIN).
#
# The only source is a package index that pip can reach and that has `hermes-agent`
# (`pip install hermes-agent==VERSION` into a venv of its own). Nothing is installed from
# ../shared or from copied source: Hermes is third-party code and the project ships none of it.
# Where no index has it (CI, and most machines here), the script says why for each release,
# leaves the reason in .cache/hermes/<version>.skip for the tests to print, and exits 0: the
# tests against a real Hermes are then skipped, and the fake agent is held against the recorded
# runs in ../shared/hermes-agent/recorded instead (test/contract/).
# Hermes needs Python 3.11–3.13 ($HERMES_PYTHON, else the first of python3, python3.13,
# python3.12, python3.11 that fits). Idempotent: an installed version is left alone.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
cache=$root/.cache/hermes
versions=(0.19.0 0.20.0)
mkdir -p "$cache"

say() { echo "install-real-hermes: $*"; }

skip_all() {
	for version in "${versions[@]}"; do
		echo "$1" > "$cache/$version.skip"
		say "$version: not installed: $1"
	done
	exit 0
}

python_minor() { "$1" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null; }

fits() {
	case "$(python_minor "$1")" in
		3.11 | 3.12 | 3.13) return 0 ;;
		*) return 1 ;;
	esac
}

if [ -n "${HERMES_PYTHON:-}" ]; then
	fits "$HERMES_PYTHON" || skip_all "HERMES_PYTHON=$HERMES_PYTHON is Python $(python_minor "$HERMES_PYTHON" || echo '?'), Hermes 0.19/0.20 need Python 3.11-3.13"
	python=$HERMES_PYTHON
else
	python=
	for candidate in python3 python3.13 python3.12 python3.11; do
		if command -v "$candidate" >/dev/null 2>&1 && fits "$candidate"; then
			python=$(command -v "$candidate")
			break
		fi
	done
	[ -n "$python" ] || skip_all "no Python 3.11-3.13 found (python3 is $(python_minor python3 || echo 'missing')); Hermes 0.19/0.20 need one: install it or set HERMES_PYTHON"
fi
say "using $python (Python $(python_minor "$python"))"

# The venv's hermes answering `--version` with VERSION is what "installed" means here.
# (Read all of its output: hermes dies of BrokenPipeError when a reader stops early.)
installed() {
	local said
	[ -x "$cache/$1/bin/hermes" ] && said=$(HERMES_HOME=$cache/.version-home "$cache/$1/bin/hermes" --version 2>/dev/null) || return 1
	[[ $said == "Hermes Agent v$1 "* ]]
}

install_from_index() {
	local version=$1
	[ -x "$cache/$version/bin/python" ] || "$python" -m venv "$cache/$version"
	PIP_DISABLE_PIP_VERSION_CHECK=1 "$cache/$version/bin/python" -m pip install -q --retries 1 --timeout 20 "hermes-agent==$version"
}

install_one() {
	local version=$1 log=$cache/$version.log
	rm -f "$cache/$version.skip"
	if installed "$version"; then
		say "$version: $cache/$version/bin/hermes (already installed)"
		return 0
	fi

	install_from_index "$version" >"$log" 2>&1 || true
	if installed "$version"; then
		say "$version: $cache/$version/bin/hermes (installed from the package index)"
	else
		local last
		last=$(grep -v '^\s*$' "$log" | tail -n 1 | cut -c1-200)
		echo "no package index reachable from here has hermes-agent==$version (pip: ${last:-no output}; full log $log)" > "$cache/$version.skip"
		say "$version: not installed: no package index reachable from here has hermes-agent==$version; the real-Hermes tests will be skipped (see $log)"
	fi
}

# Both at once: they use separate venvs, and pip mostly waits on the network.
pids=()
for version in "${versions[@]}"; do
	install_one "$version" > "$cache/$version.out" &
	pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid"; done
for version in "${versions[@]}"; do
	cat "$cache/$version.out"
	rm -f "$cache/$version.out"
done
