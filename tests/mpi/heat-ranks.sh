#!/bin/bash
# tests/mpi/heat-ranks.sh BUILD: samples/heat-mpi.cpp built with the plugin
# and Open MPI, run on the simulator with 1, 2 and 4 ranks (mpirun
# --oversubscribe): the plate equals the one-rank run's bit for bit, with
# the halo rows handed over through weft::device_data and through the host
# (update_host/update_device moving those rows alone: the bytes are
# counted exactly); and a run in which one rank's backend faults still ends,
# within a time limit, with the same plate and one warning from that rank.
# Prints SKIPPED (exit 77) without Open MPI.
set -uo pipefail
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
command -v mpirun >/dev/null && command -v mpicxx >/dev/null ||
  { echo "SKIPPED: Open MPI is not installed (openmpi-bin, libopenmpi-dev)"; exit 77; }
work=$build/tests/mpi
mkdir -p "$work"
cxx=/usr/lib/llvm-22/bin/clang++
config=$build/bin/weft-config
# shellcheck disable=SC2046
"$cxx" -O2 $("$config" --clang="$cxx" --cxxflags) $(mpicxx --showme:compile) \
  "$here/samples/heat-mpi.cpp" $(mpicxx --showme:link) $("$config" --ldflags) \
  -o "$work/heat-mpi" 2> "$work/build.log" ||
  { cat "$work/build.log"; echo "FAIL: heat-mpi does not build"; exit 1; }
if grep -q 'warning:' "$work/build.log"; then
  cat "$work/build.log"; echo "FAIL: the build warns"; exit 1
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# A machine where Open MPI cannot start two processes at all (no usable
# transport in a container) cannot run this test: say so, not fail.
if ! probe=$(timeout 60 mpirun --oversubscribe -np 2 true 2>&1); then
  echo "SKIPPED: mpirun cannot start two processes here: $(printf '%s' "$probe" | head -n 3 | tr '\n' ' ')"
  exit 77
fi
export WEFT_BACKEND=sim WEFT_SIM_THREADS=1 OMPI_MCA_rmaps_base_oversubscribe=1
export LD_LIBRARY_PATH=$build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
size=64 steps=20
status=0
run() { # NAME RANKS ARGS...: its output in $work/NAME.out
  local name=$1 ranks=$2; shift 2
  timeout 300 mpirun --oversubscribe -np "$ranks" "$@" > "$work/$name.out" 2> "$work/$name.err"
  local rc=$?
  [ $rc = 0 ] || { echo "FAIL: $name ended with $rc"; cat "$work/$name.err"; status=1; }
}
plate() { sed -n 's/^heat-mpi: [0-9]* x .*: \(sum .*\)$/\1/p' "$work/$1.out"; }

run one 1 "$work/heat-mpi" --size $size --steps $steps
expected=$(plate one)
[ -n "$expected" ] || { echo "FAIL: the one-rank run printed no plate"; cat "$work/one.out"; exit 1; }
echo "one rank: $expected"
for ranks in 2 4; do
  for halos in device host; do
    name=r$ranks-$halos
    flag=""; [ $halos = host ] && flag=--host-halos
    run $name $ranks "$work/heat-mpi" --size $size --steps $steps $flag
    got=$(plate $name)
    if [ "$got" != "$expected" ]; then
      echo "FAIL: $ranks ranks, halos through the $halos: '$got'"; status=1
    else
      echo "$ranks ranks, halos through the $halos: the one-rank plate"
    fi
    if grep -q 'weft: \(warning\|error\)' "$work/$name.err"; then
      cat "$work/$name.err"; echo "FAIL: $name warns"; status=1
    fi
    # Through the host each step moves the two rows a rank sends back and
    # the two it received out (8 bytes an element); the region copies the
    # two blocks of rows in at its start and out at its end.
    if [ $halos = host ]; then
      while read -r rank first last moved; do
        rows=$((last - first + 1))
        want=$(( (4 * (rows + 2) * size + steps * 4 * size) * 8 ))
        if [ "$moved" != "$want" ]; then
          echo "FAIL: rank $rank moved $moved bytes, not $want"; status=1
        fi
      done < <(sed -n 's/^heat-mpi: rank \([0-9]*\) of [0-9]*: rows \([0-9]*\) to \([0-9]*\) on sim, halos through the host, \([0-9]*\) bytes.*/\1 \2 \3 \4/p' "$work/$name.out")
      grep -c 'halos through the host' "$work/$name.out" | grep -qx "$ranks" ||
        { echo "FAIL: $name: not every rank traded through the host"; status=1; }
    else
      grep -c 'halos from device memory' "$work/$name.out" | grep -qx "$ranks" ||
        { echo "FAIL: $name: not every rank traded from device memory"; status=1; }
    fi
  done
done

# Rank 1's third launch faults: that rank runs its loop on the host from
# then on, its region's data copied back; the job ends with the same plate.
run fault 2 sh -c 'if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then export WEFT_TEST_FAULT=launch@3; fi; exec "$0" "$@"' \
  "$work/heat-mpi" --size $size --steps $steps
got=$(plate fault)
if [ "$got" != "$expected" ]; then
  echo "FAIL: with rank 1's backend failing: '$got'"; status=1
else
  echo "2 ranks, rank 1's backend failing at its third launch: the one-rank plate"
fi
warnings=$(grep -c 'weft: warning' "$work/fault.err")
if [ "$warnings" != 1 ] || ! grep -q 'the loop runs on the host' "$work/fault.err"; then
  cat "$work/fault.err"; echo "FAIL: the failing rank should warn once, got $warnings"; status=1
fi
[ $status = 0 ] && echo "mpi heat OK"
exit $status
