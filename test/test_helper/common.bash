# Loaded by every bats file: tools on PATH, bats-assert and bats-support.
bats_load_library bats-support
bats_load_library bats-assert
ROOT="$(cd "$BATS_TEST_DIRNAME/.." && pwd)"
: "${BIN:=$ROOT/bin}"
PATH="$BIN:$PATH"
FIX="$ROOT/test/fixtures"
SAMPLE="$ROOT/share/sample"
SHARED="${PK_SHARED:-$ROOT/../shared}/data/real"
