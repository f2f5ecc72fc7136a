// The parameters of the device packer of A in stage order (device/sm90a_pack_a_stages.cu): the
// canonical compressed A, as uploaded, into the blocks that the stage-order kernels move with one
// bulk copy a stage (TileConfig::a_in_stage_order). pack.hpp's pack_a_stages is the same layout on
// the host (the emu plugin's and the tests' reference). Plain data, so nvcc and g++ share it.
#pragma once

#include <cstdint>

namespace spmma_sm90a {

inline constexpr const char* kPackAStagesKernel = "sm90a_pack_a_stages";

struct PackAStagesParams {
    const uint8_t* src;  // m rows of row_bytes (k / 2 elements), contiguous
    uint8_t* dst;        // chunks x 16 bytes (packed_a_stages_bytes)
    int64_t m, row_bytes;
    int64_t chunks;      // 16-byte chunks of dst
    int64_t k_tiles;     // stages a tile row (kp / stage_k)
    int32_t slice_rows;  // rows of a block (TileConfig::a_slice_rows)
};

}  // namespace spmma_sm90a
