#!/bin/bash
# lud variants side by side: the sample at HEAD (old), with its diagonal's
# dot products marked as reductions (diag), and the perimeter's too (perim).
nvidia-smi --query-gpu=name,driver_version --format=csv
for tune in off on; do
  for v in old diag perim; do
    echo "== lud-$v WEFT_TUNE=$tune"
    env WEFT_TUNE=$tune WEFT_CACHE_DIR=/tmp/c-$v-$tune LD_LIBRARY_PATH=gpu-bundle/lib \
      timeout 100 gpu-bundle/benchmarks/lud-$v benchmarks/lud/hand-tuned.cu 2>&1 | grep -v '^mapping'
  done
done
