# Sourced by bench/device/ncu.sh and ncu_stalls.sh: where ncu is, and the `spmma gemm` type
# options of a kernel named <plugin>_<a><b>_<acc>_... (f16, bf16, e4m3 or s8 problems).
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)

# kernel_types KERNEL: prints the type options, or fails for a kernel of another type.
kernel_types() {
    case ${1#*_} in
        f16f16_f32_*) echo "--dtype f16 --acc f32 --out f16" ;;
        f16f16_f16_*) echo "--dtype f16 --acc f16 --out f16" ;;
        bf16bf16_f32_*) echo "--dtype bf16 --acc f32 --out bf16" ;;
        e4m3e4m3_f32_*) echo "--dtype e4m3 --acc f32 --out bf16" ;;
        s8s8_s32_*) echo "--dtype s8 --acc s32 --out s32" ;;
        *) return 1 ;;
    esac
}
