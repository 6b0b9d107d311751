#!/bin/sh
# test_libcachesim.sh - the policies against libCacheSim, the cache simulator
# researchers use, miss for miss on generated traces (libcachesim_diff.py).
#
# Needs the reference virtual environment that 'scripts/setup.sh reference'
# installs (npm run test:core does); without it this suite FAILS, naming the
# command to run: a reference check that silently skips proves nothing.
# Same default location as scripts/setup.sh.
PAGELAB=${PAGELAB:-build/pagelab}
venv=${PAGELAB_REFERENCE_VENV:-$HOME/.cache/pagelab/libcachesim-0.3.5}
if ! "$venv/bin/python" -c 'import libcachesim' 2>/dev/null; then
	echo "FAIL libCacheSim's Python bindings are not in $venv: run 'bash scripts/setup.sh reference'"
	echo "0 passed, 1 failed"
	exit 1
fi
PAGELAB=$PAGELAB exec "$venv/bin/python" "$(dirname "$0")/libcachesim_diff.py"
