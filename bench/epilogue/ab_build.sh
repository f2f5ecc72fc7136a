#!/usr/bin/env bash
# Two builds of the sm90a plugin against each other on the serving op and its plain twin, in one
# device call, from the repository root with the build laid out by bench/device/prepare.sh (the
# new build) and the other build's plugin file carried beside it:
#   OUT=$OUT OLD=.deploy/old/spmma-sm90a.so [ORDER="new old"] bench/epilogue/ab_build.sh
# For each build in ORDER (new, old; a build may come more than once), bench/epilogue/device.sh
# with PLUGINS=$PLUGIN_NAME (its SET_SHAPES, DECODE_LAYERS, DECODE_N and MIN_TIME_* pass through) into
# $OUT/<build>-<i>/, the plugin file swapped in the build's plugin folder; then every run's table
# in $OUT/ab_table.txt, in ORDER. The new plugin is put back at the end. Exit 0 when every run
# verified. PLUGIN_NAME (sm90a) names another plugin of the build; on the CPU (what the test of this
# script runs): BUILD=build PLUGIN_NAME=cpu OLD=<a copy of build/lib/spmma/plugins/spmma-cpu.so>
# SET_SHAPES=64x32x128 DECODE_LAYERS=96x256 DECODE_N=1,8 MIN_TIME_SET=0 MIN_TIME_DECODE=0.
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
OUT=${OUT:?OUT names the output folder}
OLD=${OLD:?OLD names the spmma-sm90a.so of the other build}
ORDER=${ORDER:-new old}
PLUGIN_NAME=${PLUGIN_NAME:-sm90a}
PLUGIN=$BUILD/lib/spmma/plugins/spmma-$PLUGIN_NAME.so
for build in $ORDER; do
    case $build in new | old) ;; *) echo "ab_build.sh: ORDER takes new and old, not '$build'" >&2; exit 2 ;; esac
done
mkdir -p "$OUT"
cp "$PLUGIN" "$OUT/new-plugin.so.keep" || exit 2
# put FILE: FILE becomes the build's plugin by a rename (a process that has the plugin open keeps
# the file it opened).
put() { cp "$1" "$PLUGIN.ab-tmp" && mv -f "$PLUGIN.ab-tmp" "$PLUGIN"; }
status=0 i=0
: > "$OUT/ab_table.txt"
for build in $ORDER; do
    i=$((i + 1))
    case $build in
        new) put "$OUT/new-plugin.so.keep" || exit 2 ;;
        old) put "$OLD" || exit 2 ;;
    esac
    OUT=$OUT/$build-$i PLUGINS=$PLUGIN_NAME BUILD=$BUILD bench/epilogue/device.sh > /dev/null 2>&1 || status=1
    { echo "## $build ($i)"; cat "$OUT/$build-$i/table.txt"; echo; } >> "$OUT/ab_table.txt"
done
put "$OUT/new-plugin.so.keep" && rm -f "$OUT/new-plugin.so.keep"
cat "$OUT/ab_table.txt"
exit $status
