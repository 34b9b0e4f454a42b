#!/usr/bin/env bash
# Loopy nim values (`retrograde grundy`) against the main solve of the same
# graph (`retrograde solve -j 1`, the sequential engine: one pass of the
# seed's counter algorithm), in the same run: the ratio is the number of
# stages the values take, as the complexity O((V + E) · (m + 2)) says, m the
# largest finite value.
#
#   bench/grundy.sh [RUNS]      (default 3; the fastest run of each is kept)
#
# Graphs (under target/bench/, made once):
#   random-250000-1000000, random-2500000-10000000   `retrograde generate -s 42`
#   heaps-N   the complete acyclic graph on N vertices (k -> j for every
#             j < k: nim heaps, value k at k), the worst case for stages,
#             N = 1415 (1,000,405 edges) and N = 2000 (1,999,000 edges)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-3}
DIR=target/bench
BIN=target/release/retrograde
cargo build --release -q -p retrograde-cli
mkdir -p "$DIR"
graphs=()
for spec in "250000 1000000" "2500000 10000000"; do
  set -- $spec
  f="$DIR/random-$1-$2.rgb"
  [ -f "$f" ] || "$BIN" generate -q -n "$1" -m "$2" -s 42 "$f"
  graphs+=("$f")
done
for n in 1415 2000; do
  f="$DIR/heaps-$n.rgb"
  if [ ! -f "$f" ]; then
    awk -v n="$n" 'BEGIN { for (k = 1; k < n; k++) for (j = 0; j < k; j++) print k, j }' > "$DIR/heaps-$n.txt"
    "$BIN" convert -q "$DIR/heaps-$n.txt" "$f"
  fi
  graphs+=("$f")
done
# The fastest of RUNS runs of a phase's seconds, read from the --json report.
fastest() {
  local phase=$1; shift
  for _ in $(seq "$RUNS"); do
    "$@" --json | python3 -c "import json,sys; print([p['seconds'] for p in json.load(sys.stdin)['time']['phases'] if p['name']=='$phase'][0])"
  done | sort -g | head -1
}
printf '%-30s %10s %10s %8s %7s %9s %9s %7s %12s\n' graph vertices edges largest stages grundy solve ratio 'ns/(V+E)/st'
for g in "${graphs[@]}"; do
  info=$("$BIN" grundy "$g" --json)
  edges=$("$BIN" solve "$g" --json -q | python3 -c "import json,sys; print(json.load(sys.stdin)['moves'])")
  vertices=$(echo "$info" | python3 -c "import json,sys; print(json.load(sys.stdin)['positions'])")
  largest=$(echo "$info" | python3 -c "import json,sys; print(json.load(sys.stdin)['counts']['largest'])")
  stages=$(echo "$info" | python3 -c "import json,sys; print(json.load(sys.stdin)['stages'])")
  t_grundy=$(fastest grundy "$BIN" grundy "$g")
  t_solve=$(fastest solve "$BIN" solve "$g" -j 1 -q)
  ratio=$(python3 -c "print(f'{$t_grundy / $t_solve:.2f}')")
  per=$(python3 -c "print(f'{$t_grundy * 1e9 / (($vertices + $edges) * $stages):.2f}')")
  printf '%-30s %10s %10s %8s %7s %8.3fs %8.3fs %7s %12s\n' "$(basename "$g" .rgb)" "$vertices" "$edges" "$largest" "$stages" "$t_grundy" "$t_solve" "$ratio" "$per"
done
