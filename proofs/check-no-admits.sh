#!/bin/sh
# Fails if the mechanisation contains unfinished proofs or extra axioms.
#  1. no Admitted / admit / Axiom / Parameter / Abort / Conjecture /
#     Hypothesis / Variable(s) / give_up in any .v file (comments included:
#     keep those words out of comments too);
#  2. every "Print Assumptions" in Assumptions.v answers
#     "Closed under the global context".
# Usage: proofs/check-no-admits.sh (from anywhere); needs coqc.
set -eu
cd "$(dirname "$0")"
status=0
if grep -nE '\b(Admitted|admit|Axiom|Axioms|Parameter|Parameters|Abort|Conjecture|Hypothesis|Hypotheses|Variable|Variables|give_up)\b' ./*.v \
     | grep -v '^./Assumptions.v:'; then
  echo "check-no-admits: forbidden keyword found (see above)" >&2
  status=1
fi
# Build whatever is needed, then audit the assumptions of the main theorems.
make -s all >/dev/null
out=$(coqc -Q . BabyCUDA Assumptions.v)
rm -f Assumptions.vo Assumptions.vok Assumptions.vos Assumptions.glob .Assumptions.aux
expected=$(grep -c '^Print Assumptions' Assumptions.v)
closed=$(printf '%s\n' "$out" | grep -c 'Closed under the global context' || true)
if [ "$closed" -ne "$expected" ]; then
  printf '%s\n' "$out"
  echo "check-no-admits: $((expected - closed)) of $expected theorems depend on axioms" >&2
  status=1
fi
[ "$status" -eq 0 ] && echo "check-no-admits: OK ($closed theorems closed under the global context, no admits)"
exit "$status"
