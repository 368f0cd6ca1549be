# Loaded by every bats file: tools on PATH, bats-assert and bats-support.
bats_load_library bats-support
bats_load_library bats-assert
ROOT="$(cd "$BATS_TEST_DIRNAME/.." && pwd)"
: "${BIN:=$ROOT/bin}"
PATH="$BIN:$PATH"
FIX="$ROOT/test/fixtures"
SAMPLE="$ROOT/share/sample"
SHARED="${PK_SHARED:-$ROOT/../shared}/data/real"
# Sanitized builds are slower and reserve huge address space: tests that
# bound time or memory scale or skip their bounds by these.
case "$BIN" in *-san*) SANITIZED=1 TIME_FACTOR=10 ;; *) SANITIZED= TIME_FACTOR=1 ;; esac
