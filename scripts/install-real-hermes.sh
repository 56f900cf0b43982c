#!/usr/bin/env bash
# Installs the real Hermes Agent CLI, releases 0.19.0 and 0.20.0, into .cache/hermes/<version>/
# for the tests in test/hermes/ (test/helpers/real-hermes.ts finds them there).
#
# Source, in this order:
#   1. ../shared/hermes-agent/ beside the repository (or $HERMES_SHARED_DIR): the slim source
#      tarballs, installed fully offline from its wheelhouse by its install-hermes.sh;
#   2. otherwise the pip-configured index (PyPI): `pip install hermes-agent==VERSION` into the venv.
# A version that cannot be installed gets .cache/hermes/<version>.skip holding the reason, which
# the tests print when they skip (under CI=true they fail instead). Hermes needs Python 3.11–3.13
# ($HERMES_PYTHON, else the first of python3, python3.13, python3.12, python3.11 that fits).
# Idempotent: an installed version is left alone (a fraction of a second). Exit status 0 unless
# something unexpected broke; stdout: one line per version saying where it is or why not.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
cache=$root/.cache/hermes
shared=${HERMES_SHARED_DIR:-$root/../shared/hermes-agent}
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

install_from_shared() {
	local version=$1 wheels=()
	[ -d "$shared/wheels" ] && wheels=("$shared/wheels")
	HERMES_PYTHON=$python "$shared/install-hermes.sh" "$shared/hermes-agent-$version-slim.tar.gz" "$cache/$version" "${wheels[@]}" >/dev/null
}

install_from_index() {
	local version=$1
	[ -x "$cache/$version/bin/python" ] || "$python" -m venv "$cache/$version"
	PIP_DISABLE_PIP_VERSION_CHECK=1 "$cache/$version/bin/python" -m pip install -q --retries 1 "hermes-agent==$version"
}

install_one() {
	local version=$1 log=$cache/$version.log
	rm -f "$cache/$version.skip"
	if installed "$version"; then
		say "$version: $cache/$version/bin/hermes (already installed)"
		return 0
	fi

	local how
	if [ -f "$shared/hermes-agent-$version-slim.tar.gz" ] && [ -x "$shared/install-hermes.sh" ]; then
		how="from $shared"
		install_from_shared "$version" 2>"$log" || true
	else
		how="from the package index (no $shared/hermes-agent-$version-slim.tar.gz)"
		install_from_index "$version" >"$log" 2>&1 || true
	fi

	if installed "$version"; then
		say "$version: $cache/$version/bin/hermes (installed $how)"
	else
		echo "installing Hermes $version $how failed; see $log" > "$cache/$version.skip"
		say "$version: NOT installed: installing $how failed; last lines of $log:"
		tail -n 5 "$log" | sed 's/^/    /'
	fi
}

# Both at once: each is ~20 s, mostly pip waiting on files, and they use separate venvs.
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
