#!/usr/bin/env bash
# A game from its rules alone against the same game numbered by hand.
#
#   bench/explore.sh [KIND SIDE]...     default: king 20 king 40 rook 60
#
# The game is bench/explore's pursuit on a SIDE x SIDE torus (KIND king: 9
# moves a position, rook: 4), or Teeko (KIND teeko, SIDE -). Each
# configuration runs four ways, REPEAT times each (default 3), keeping the
# fastest run:
#   state       explored by key (the game numbers its positions), numbered,
#               reversed and solved by the library (StateGame; the moves
#               recorded; the lean engine: what Explorer::solve does);
#   state-low   the same with Explorer::low_memory (moves generated again
#               instead of held twice) and the lean engine: the least memory;
#   state-hash  explored by hash (Explorer::by_hash), as a game that does not
#               number its positions is: the path before exploring by key;
#   dense       the hand-numbered Game with reverse moves (solve_game, the
#               lean engine, best moves on demand): the baseline.
# Prints one Markdown row per run: positions, moves, seconds, positions a
# second, peak resident memory in bytes per position, and time against dense.
set -euo pipefail
cd "$(dirname "$0")/.."
args=("$@")
[ ${#args[@]} -eq 0 ] && args=(king 20 king 40 rook 60)
REPEAT=${REPEAT:-3}
cargo build --release -q -p retrograde-bench-explore
bin=target/release/bench-explore

field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }
best() {
    for _ in $(seq "$REPEAT"); do "$bin" "$@" 2>/dev/null; done |
        awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^total_s=/) { split($i, a, "="); print a[2], $0 } }' |
        sort -n | head -1 | cut -d' ' -f2-
}
echo "| game | path | positions | moves | time | positions/s | peak B/position | peak B/position beyond 4 a move | time vs dense |"
echo "|---|---|---|---|---|---|---|---|---|"
while [ ${#args[@]} -ge 2 ]; do
    kind=${args[0]} side=${args[1]}
    args=("${args[@]:2}")
    dense=$(best "$kind" "$side" dense)
    dense_s=$(echo "$dense" | field total_s)
    for path in state state-low state-hash dense; do
        line=$([ "$path" = dense ] && echo "$dense" || best "$kind" "$side" "$path")
        t=$(echo "$line" | field total_s)
        printf "| %s %s | %s | %s | %s | %s s | %s | %s | %s | %s |\n" "$kind" "$side" "$path" \
            "$(echo "$line" | field positions)" "$(echo "$line" | field moves)" "$t" \
            "$(echo "$line" | field positions_per_s)" "$(echo "$line" | field bytes_per_position)" \
            "$(echo "$line" | field bytes_per_position_beyond_4_per_move)" \
            "$(awk -v a="$t" -v b="$dense_s" 'BEGIN { printf "%.1fx", a / b }')"
    done
done
