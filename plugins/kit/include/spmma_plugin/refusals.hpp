// Pieces of the reasons plugins give for what they cannot run, written once so that the same
// obstacle reads the same in every plugin. Pure C++ (no CUDA).
#pragma once

#include <spmma/plugin.h>

#include <cstdint>
#include <string>

namespace spmma_plugin {

// f32, f16 or bf16: what a floating-point epilogue reads (C) and writes (D).
constexpr bool is_float_type(spmma_dtype t) { return t == SPMMA_F32 || t == SPMMA_F16 || t == SPMMA_BF16; }

// "f16 x f16 -> f32", with " satfinite" when `satfinite`.
std::string types_label(spmma_dtype a, spmma_dtype b, spmma_dtype acc, bool satfinite = false);
// The problem's types as types_label writes them.
std::string types_label(const spmma_problem& p);

// "" when a kernel's shared memory fits the device's per-block limit, else "kernel NAME needs
// 97 KiB of shared memory per block, sm_86 allows 99 KiB" style.
std::string shared_memory_reason(const std::string& kernel, int need_bytes, int allowed_bytes, const std::string& arch);

// "" for a problem without an epilogue (ABI 1.2: row or column scales, a bias, an activation);
// else the refusal of a plugin whose kernels do not apply one yet, naming what the problem asks
// for ("unsupported: the sm120a plugin does not apply the epilogue yet (rs cs bias:col/f32 relu);
// it computes alpha*A*B + beta*C only").
std::string unfused_epilogue_reason(const spmma_problem& p, const std::string& plugin);
// For a plugin whose kernels fuse the epilogue (FusedEpilogue): "" when they can apply p's, else
// the host plugins' reason (host_epilogue_reason: unknown fields, a bias of a third type, an
// integer problem) as "unsupported: ...".
std::string fused_epilogue_reason(const spmma_problem& p);
// The epilogue of p in words: "rs cs bias:col/f32 gelu-tanh" ("" when none), plugin.h's label.
std::string epilogue_words(const spmma_problem& p);

// "" when one launch of bm x bn tiles over m x n has at most 2^31 - 1 CTAs (the grid's x limit).
std::string tile_count_reason(int64_t m, int64_t n, int bm, int bn);

}  // namespace spmma_plugin
