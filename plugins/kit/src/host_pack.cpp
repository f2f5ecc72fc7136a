#include <spmma_plugin/host_pack.hpp>

#include <bit>
#include <cstring>
#include <stdexcept>

namespace spmma_plugin::host {

void pad_rows(const void* src, int64_t rows, size_t src_row_bytes, int64_t dst_rows, size_t dst_row_bytes, void* dst,
              int threads) {
    if (dst_row_bytes < src_row_bytes) throw std::invalid_argument("pad_rows: destination rows are shorter than the source");
    if (dst_rows < rows) throw std::invalid_argument("pad_rows: fewer destination rows than source rows");
    const auto* s = static_cast<const uint8_t*>(src);
    auto* d = static_cast<uint8_t*>(dst);
    parallel_for(dst_rows, threads, [&](int64_t r0, int64_t r1) {
        for (int64_t r = r0; r < r1; ++r) {
            uint8_t* row = d + static_cast<size_t>(r) * dst_row_bytes;
            const size_t copied = r < rows ? src_row_bytes : 0;
            if (copied) std::memcpy(row, s + static_cast<size_t>(r) * src_row_bytes, copied);
            std::memset(row + copied, 0, dst_row_bytes - copied);
        }
    });
}

uint32_t canonical_code(spmma_dtype t, const void* buf, int64_t i) {
    const auto* p = static_cast<const uint8_t*>(buf);
    switch (spmma_dtype_storage_bits(t)) {
        case 4: return (p[i / 2] >> (4 * (i % 2))) & 0xFu;
        case 16: {
            uint16_t v;
            std::memcpy(&v, p + 2 * i, 2);
            return v;
        }
        case 32: {
            uint32_t v;
            std::memcpy(&v, p + 4 * i, 4);
            return v;
        }
        default: return p[i];
    }
}

float f16_to_f32(uint16_t h) {
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    const uint32_t exp = (h >> 10) & 0x1Fu;
    uint32_t man = h & 0x3FFu;
    if (exp == 0x1F) return std::bit_cast<float>(sign | 0x7F800000u | (man << 13));
    if (exp != 0) return std::bit_cast<float>(sign | ((exp + 112u) << 23) | (man << 13));
    if (man == 0) return std::bit_cast<float>(sign);
    int e = -1;  // subnormal: normalise
    do {
        man <<= 1;
        ++e;
    } while (!(man & 0x400u));
    return std::bit_cast<float>(sign | (static_cast<uint32_t>(112 - e) << 23) | ((man & 0x3FFu) << 13));
}

float bf16_to_f32(uint16_t h) { return std::bit_cast<float>(static_cast<uint32_t>(h) << 16); }

void widen_c(spmma_dtype c_type, const void* c, int64_t count, void* out) {
    const auto* s = static_cast<const uint8_t*>(c);
    auto* o = static_cast<uint8_t*>(out);
    switch (c_type) {
        case SPMMA_F32:
        case SPMMA_S32: std::memcpy(o, s, static_cast<size_t>(count) * 4); return;
        case SPMMA_F16:
        case SPMMA_BF16:
            for (int64_t i = 0; i < count; ++i) {
                uint16_t h;
                std::memcpy(&h, s + 2 * i, 2);
                const float f = c_type == SPMMA_F16 ? f16_to_f32(h) : bf16_to_f32(h);
                std::memcpy(o + 4 * i, &f, 4);
            }
            return;
        default: throw std::invalid_argument(std::string("C of type ") + spmma_dtype_name(c_type) + " is not supported");
    }
}

int kept_columns(spmma_pattern pattern, uint8_t idx, int columns[4]) {
    if (pattern == SPMMA_PATTERN_1_2) {
        if (idx > 1) return 0;
        columns[0] = idx;
        return 1;
    }
    const int i0 = idx & 3, i1 = (idx >> 2) & 3;
    if (idx > 0xF || i0 >= i1) return 0;
    if (pattern == SPMMA_PATTERN_2_4) {
        columns[0] = i0;
        columns[1] = i1;
        return 2;
    }
    if (pattern != SPMMA_PATTERN_4_8_PAIRWISE) return 0;
    columns[0] = 2 * i0;
    columns[1] = 2 * i0 + 1;
    columns[2] = 2 * i1;
    columns[3] = 2 * i1 + 1;
    return 4;
}

std::string first_undefined_index(int group, int64_t m, int64_t k, const uint8_t* indices, const std::string& rule) {
    if (group == 2) return {};
    const int64_t groups = k / group;
    for (int64_t i = 0; i < m * groups; ++i) {
        const unsigned first = indices[i] & 3u, second = (indices[i] >> 2) & 3u;
        if (first < second && !(indices[i] & 0xF0u)) continue;
        const char* hex = "0123456789abcdef";
        return "index byte of row " + std::to_string(i / groups) + ", group " + std::to_string(i % groups) + " is 0x" +
               std::string(1, hex[indices[i] >> 4]) + std::string(1, hex[indices[i] & 15]) + ": " + rule;
    }
    return {};
}

}  // namespace spmma_plugin::host
