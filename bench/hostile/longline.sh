#!/bin/sh
# One 10 MiB line with no newline at all, then exit.
head -c 10M /dev/zero | tr '\0' 'x'
