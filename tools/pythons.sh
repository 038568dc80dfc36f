#!/bin/sh
# Every declared CPython builds the C twin: for each 3.10-3.13 that pyenv offers here,
# build and install the package into its own venv with the extension required
# (PERCENT_ENCODING_REQUIRE_EXTENSION=1: a failed build fails this script), check that
# IMPLEMENTATION is "c", and run the twin-agreement tests (the C twin against the pure
# one on fixed cases and hypothesis inputs: tests/test_speedups.py). A version pyenv
# does not offer is skipped with a line saying so. Run by .ci/run; about a minute a
# version on two busy cores (one build, one test file).
#   tools/pythons.sh            every version found
#   tools/pythons.sh 3.10 3.13  just these
set -eu
cd "$(dirname "$0")/.."
ROOT=$(pwd)
PYENV_ROOT=${PYENV_ROOT:-$HOME/.pyenv}
WORK=${PYTHONS_DIR:-$ROOT/.pythons}
# The extension's declared range (pyproject's requires-python and classifiers).
versions=${*:-3.10 3.11 3.12 3.13}
mkdir -p "$WORK"
failed=""
for ver in $versions; do
    py=""
    for cand in $(ls -d "$PYENV_ROOT/versions/$ver".* 2>/dev/null | sort -V); do
        [ -x "$cand/bin/python3" ] && py="$cand/bin/python3"
    done
    if [ -z "$py" ]; then
        echo "pythons: CPython $ver is not offered by pyenv here (${PYENV_ROOT}); skipped"
        continue
    fi
    venv="$WORK/$ver"
    [ -x "$venv/bin/python" ] || "$py" -m venv "$venv"
    echo "pythons: $("$py" -V) - build with the C extension required, then the twin tests"
    if ! PERCENT_ENCODING_REQUIRE_EXTENSION=1 "$venv/bin/python" -m pip install -q \
            --force-reinstall --no-deps "$ROOT" \
        || ! "$venv/bin/python" -m pip install -q pytest hypothesis \
        || ! (cd "$WORK" && "$venv/bin/python" -c \
            'import percent_encoding as p; assert p.IMPLEMENTATION == "c", p.IMPLEMENTATION') \
        || ! (cd "$WORK" && PYTHONDONTWRITEBYTECODE=1 "$venv/bin/python" -m pytest -q \
            -p no:cacheprovider --rootdir "$ROOT" -c "$ROOT/pyproject.toml" \
            --hypothesis-profile=quick \
            "$ROOT/tests/test_speedups.py"); then
        failed="$failed $ver"
    fi
done
if [ -n "$failed" ]; then
    echo "pythons: FAILED on$failed" >&2
    exit 1
fi
