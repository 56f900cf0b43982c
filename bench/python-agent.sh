#!/bin/sh
# Stand-in for `hermes chat` with the floor cost of a real one: Hermes is a Python program, so
# no real subagent starts faster than a bare Python interpreter does.
exec "$(command -v /usr/bin/python3 || command -v python3)" -c 'print("ok")'
