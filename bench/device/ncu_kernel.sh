# Sourced by bench/device/ncu.sh and ncu_stalls.sh: where ncu is, the `spmma gemm` type options
# of a kernel named <plugin>_<a><b>_<acc>_... (f16, bf16, e4m3 or s8 problems; the peers' names,
# <plugin>_f16f16_f32acc..., too), and the CUDA function a peer plugin runs.
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)

# kernel_types KERNEL: prints the type options, or fails for a kernel of another type.
kernel_types() {
    case ${1#*_} in
        f16f16_f32_* | f16f16_f32acc*) echo "--dtype f16 --acc f32 --out f16" ;;
        f16f16_f16_* | f16f16_f16acc*) echo "--dtype f16 --acc f16 --out f16" ;;
        bf16bf16_f32_* | bf16bf16_f32acc*) echo "--dtype bf16 --acc f32 --out bf16" ;;
        e4m3e4m3_f32_* | f8f8_f32acc*) echo "--dtype e4m3 --acc f32 --out bf16" ;;
        s8s8_s32_* | s8s8_s32acc*) echo "--dtype s8 --acc s32 --out s32" ;;
        *) return 1 ;;
    esac
}

# gpu_function PLUGIN KERNEL SPMMA_ARGS...: the CUDA function (ncu's "function" base name) that
# runs the GEMM. For an spmma kernel plugin that is the kernel's own name. A vendor library's
# (cusparselt, cublas) is found by running the problem once (its search fills the plan cache),
# then with three timed launches under ncu timing every launch (bench/device/gemm_launch.py).
gpu_function() {
    local plugin=$1 kernel=$2
    shift 2
    case $plugin in
        cusparselt | cublas) ;;
        *) echo "$kernel"; return 0 ;;
    esac
    "$BUILD/bin/spmma" gemm --plugin "$plugin" --kernel "$kernel" "$@" --warmup 0 --iterations 1 \
        --verify none --no-progress > /dev/null 2>&1 || return 1
    "$NCU" --target-processes all --metrics gpu__time_duration.sum --csv --print-units base \
        --print-kernel-base function "$BUILD/bin/spmma" gemm --plugin "$plugin" --kernel "$kernel" "$@" \
        --warmup 0 --iterations 3 --verify none --no-progress 2> /dev/null |
        python3 bench/device/gemm_launch.py
}
