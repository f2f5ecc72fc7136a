#!/usr/bin/env bash
# What a worker's first contact with its GPU costs on this host, and what it depends on: cuInit,
# the device's primary context, page-locking a shared operand region (cuMemHostRegister) and its
# first copy, with every GPU visible or only the worker's own (CUDA_VISIBLE_DEVICES), one process
# or several at once (as `--devices all` starts three workers a device), the PORTABLE flag, and
# tmpfs pages of 4 KiB or huge ones. Each line is one process (bench/devices/pin_probe.cpp)
# mapping a tmpfs file of BYTES (an operand arena of the standard set's 16384^3 jobs by default),
# touching it, then timing each step:
#
#   PROBE=.deploy/pin_probe bench/devices/pinning.sh
#
# PROBE is built with `g++ -O2 -o pin_probe bench/devices/pin_probe.cpp -I$CUDA/include
# -L$CUDA/lib64/stubs -lcuda`.
set -uo pipefail
PROBE=${PROBE:?the pin_probe binary}
BYTES=${BYTES:-872415232}
DIR=${DIR:-/dev/shm}
ngpu=$(nvidia-smi -L | wc -l)
all=$(seq -s, 0 $((ngpu - 1)))
echo "host: $(nproc) threads, $ngpu GPUs; iommu groups: $(ls /sys/kernel/iommu_groups 2>/dev/null | wc -l);" \
     "shmem THP: $(cat /sys/kernel/mm/transparent_hugepage/shmem_enabled 2>/dev/null)"
a=$DIR/pin-a b=$DIR/pin-b
since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }'; }
# one VISIBLE FILE FLAGS [DEVICE [advise]]
one() { CUDA_VISIBLE_DEVICES=$1 "$PROBE" "$2" "$BYTES" "$3" "${4:-0}" ${5:-}; }
echo "# one process at a time (visible devices, flags 1 = PORTABLE)"
one "$all" "$a" 1; one "$all" "$a" 1; one 0 "$a" 1; one "$all" "$a" 0; one 0 "$a" 0
echo "# three processes on the same pages at once, then in turn"
t0=$EPOCHREALTIME; for i in 1 2 3; do one "$all" "$a" 1 & done; wait; echo "at once: $(since "$t0") s"
t0=$EPOCHREALTIME; for i in 1 2 3; do one "$all" "$a" 1; done; echo "in turn: $(since "$t0") s"
t0=$EPOCHREALTIME; for i in 1 2 3; do one 0 "$a" 1 & done; wait; echo "at once, one GPU visible: $(since "$t0") s"
if [ "$ngpu" -ge 2 ]; then
    echo "# two devices' workers, three on each device's own pages at once: every GPU visible, then only its own"
    t0=$EPOCHREALTIME; for i in 1 2 3; do one "$all" "$a" 1 0 & one "$all" "$b" 1 1 & done; wait; echo "six at once: $(since "$t0") s"
    t0=$EPOCHREALTIME; for i in 1 2 3; do one "$all" "$a" 1 0 & one "$all" "$b" 1 1 & done; wait; echo "six at once: $(since "$t0") s"
    t0=$EPOCHREALTIME; for i in 1 2 3; do one 0 "$a" 1 & one 1 "$b" 1 & done; wait; echo "six at once, its own GPU visible: $(since "$t0") s"
    t0=$EPOCHREALTIME; for i in 1 2 3; do one 0 "$a" 1 & one 1 "$b" 1 & done; wait; echo "six at once, its own GPU visible: $(since "$t0") s"
fi
echo "# huge pages (tmpfs mounted huge=always)"
mkdir -p /tmp/spmma-huge && mount -t tmpfs -o huge=always,size=4g none /tmp/spmma-huge 2>&1 && {
    one "$all" /tmp/spmma-huge/pin-a 1; one "$all" /tmp/spmma-huge/pin-a 1
    grep -i "ShmemHugePages" /proc/meminfo
    umount /tmp/spmma-huge
}
rm -f "$a" "$b"
