#!/bin/sh
# Prints nothing and waits. Once hermes-delegate is gone, no write of ours ever fails, so no
# SIGPIPE ever ends us: only `hermes-delegate gc` (or the cascade) does.
exec sleep "${SILENT_SLEEP:-3600}"
