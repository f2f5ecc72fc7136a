// A in stage order, packed on the GPU: one thread a 16-byte chunk of the packed buffer, which it
// fills from the canonical row and byte that layout.hpp's a_stage_source names, or with zeros in
// the padding (rows past m, bytes past the row). NOTES: packed on the host, a large weight's
// upload paid for a host buffer and a copy from pageable memory; here it is one upload as given
// and one pass at the device's bandwidth (plugins/sm90a/NOTES.md, "A in stage order at n = 128,
// and packed on the device").
#include <spmma_sm90a/layout.hpp>
#include <spmma_sm90a/pack_a_stages_params.hpp>

extern "C" __global__ void __launch_bounds__(256) sm90a_pack_a_stages(const spmma_sm90a::PackAStagesParams p) {
    const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
    for (int64_t c = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; c < p.chunks; c += stride) {
        const spmma_sm90a::AStageSource s = spmma_sm90a::a_stage_source(c * 16, p.k_tiles, p.slice_rows);
        uint4 out = make_uint4(0, 0, 0, 0);
        if (s.row < p.m && s.byte < p.row_bytes) {
            const uint8_t* src = p.src + s.row * p.row_bytes + s.byte;
            if (s.byte + 16 <= p.row_bytes && reinterpret_cast<uintptr_t>(src) % 16 == 0) {
                out = *reinterpret_cast<const uint4*>(src);
            } else {
                // A row whose bytes are not a multiple of 16 (k not a multiple of 32 / elem bytes).
                uint8_t bytes[16] = {};
                const int64_t n = p.row_bytes - s.byte < 16 ? p.row_bytes - s.byte : 16;
                for (int64_t i = 0; i < n; ++i) bytes[i] = src[i];
                memcpy(&out, bytes, 16);
            }
        }
        reinterpret_cast<uint4*>(p.dst)[c] = out;
    }
}
