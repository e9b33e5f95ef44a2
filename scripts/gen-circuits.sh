#!/usr/bin/env bash
# Regenerates the lop3-fuse large-circuit suite,
# crates/ptx-opt/benches/circuits/*.aig (committed): ABC's own generators
# (array and Booth multipliers, a bit sorter, a ripple-carry adder) and
# yosys synthesising the Verilog in benches/circuits/src/, each structurally
# hashed by ABC (`strash`) into the AIG that both ABC and ptx-opt then map
# (`cargo bench -p ptx-opt --bench circuits`).
# Needs berkeley-abc and yosys (Debian); measured with yosys 0.23 and
# berkeley-abc 1.01+20221019.
set -euo pipefail
cd "$(dirname "$0")/../crates/ptx-opt/benches/circuits"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gen() { # name, gen flags
  berkeley-abc -q "gen $2 $tmp/$1.blif; read_blif $tmp/$1.blif; strash; write_aiger -s $1.aig" >/dev/null
}
gen mul32 "-m -N 32"
gen mul64 "-m -N 64"
gen mul72 "-m -N 72"
gen booth32 "-b -N 32"
gen sort64 "-s -N 64"
gen add128 "-a -N 128"
for v in src/*.v; do
  m=$(basename "$v" .v)
  yosys -q -p "read_verilog $v; synth -flatten -top $m; aigmap; write_blif $tmp/$m.blif"
  berkeley-abc -q "read_blif $tmp/$m.blif; strash; write_aiger -s $m.aig" >/dev/null
done
ls -l ./*.aig
