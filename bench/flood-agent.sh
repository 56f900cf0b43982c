#!/bin/sh
# Stand-in for `hermes chat` that floods: 100k lines of output as fast as the reader drains them.
yes "▸ step output line from a busy subagent, roughly agent-shaped text 0123456789" | head -n "${FLOOD_LINES:-100000}"
