#!/usr/bin/env bash
# Run the test suite against an AddressSanitizer + UndefinedBehaviorSanitizer
# build of the C twin (percent_encoding._speedups).
#
#   tools/asan.sh                      # the suite (browser/node/php oracles left out)
#   tools/asan.sh tests/test_speedups.py -x
#   VALGRIND=1 tools/asan.sh tests/test_speedups.py   # valgrind memcheck instead
#
# The extension is built with gcc (or $CC) into a temporary copy of the repo, so
# the working tree and its .venv are untouched; the copy's src/ goes first on
# PYTHONPATH.  The interpreter is not instrumented, so libasan is preloaded,
# PYTHONMALLOC=malloc lets ASan see every object allocation, and leak
# detection is off (CPython keeps memory until exit by design; tests/test_leaks.py
# covers leaks).  Any report makes the run fail.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PY=${PYTHON:-$ROOT/.venv/bin/python}
CC=${CC:-gcc}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/pe-asan.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

mkdir "$WORK/repo"
tar -C "$ROOT" --exclude=./.venv --exclude=./.git --exclude=./build --exclude='*.so' \
    --exclude=__pycache__ --exclude=.hypothesis --exclude=.mypy_cache -cf - . \
    | tar -C "$WORK/repo" -xf -
# tests find ../shared/conformance next to the repo
[ -d "$ROOT/../shared" ] && ln -s "$(cd "$ROOT/../shared" && pwd)" "$WORK/shared"

INC=$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
EXT=$("$PY" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
SRC=("$WORK"/repo/src/csrc/*.c)
OUT="$WORK/repo/src/percent_encoding/_speedups$EXT"

if [ -n "${VALGRIND:-}" ]; then
    command -v valgrind >/dev/null || { echo "valgrind not installed" >&2; exit 2; }
    "$CC" -std=c99 -O1 -g -Wall -Wextra -Werror -shared -fPIC -I"$INC" "${SRC[@]}" -o "$OUT"
    # CPython itself trips memcheck (no suppression file is installed), so
    # only reports whose stack passes through src/csrc/*.c count.
    OURS="\\(($(cd "$WORK/repo/src/csrc" && ls *.c | sed 's/\\.c$//' | paste -sd'|'))\\.c:[0-9]+\\)"
    RUN=(valgrind --quiet --leak-check=no --track-origins=yes --num-callers=30
         --log-file="$WORK/valgrind.%p.log" "$PY")
    export PYTHONMALLOC=malloc
else
    "$CC" -std=c99 -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
        -fno-sanitize-recover=undefined -Wall -Wextra -Werror -shared -fPIC -I"$INC" "${SRC[@]}" -o "$OUT"
    export LD_PRELOAD
    LD_PRELOAD=$("$CC" -print-file-name=libasan.so)
    export PYTHONMALLOC=malloc ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:check_initialization_order=1
    export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
    RUN=("$PY")
fi

cd "$WORK/repo"
export PYTHONPATH="$WORK/repo/src" PYTHONDONTWRITEBYTECODE=1
"${RUN[@]}" -c 'import percent_encoding as p; assert p.IMPLEMENTATION == "c", "C twin not loaded"
print("sanitized C twin:", p._kernels.kernels.__file__)'
if [ $# -eq 0 ]; then
    # Subprocess oracles (node, chromium, php) would inherit LD_PRELOAD: leave them out.
    # So are the pure twin's 200k-character timing checks: ASan's realloc always
    # copies, and CPython's str.translate grows its output one replacement at a
    # time, so they turn quadratic here (they run in the normal suite, and the C
    # twin's run here).
    set -- tests -q --ignore=tests/test_web_e2e.py --ignore=tests/test_form_node.py \
        --ignore=tests/test_ecmascript_node.py --ignore=tests/test_legacy_oracles.py \
        -k "not (test_linear_time and python)"
fi
"${RUN[@]}" -m pytest -p no:cacheprovider "$@"
if [ -n "${VALGRIND:-}" ] && grep -lE "$OURS" "$WORK"/valgrind.*.log >/dev/null 2>&1; then
    grep -hE -B2 -A30 "$OURS" "$WORK"/valgrind.*.log | head -200
    echo "tools/asan.sh: valgrind reports in src/csrc/*.c" >&2
    exit 1
fi
echo "tools/asan.sh: no sanitizer reports"
