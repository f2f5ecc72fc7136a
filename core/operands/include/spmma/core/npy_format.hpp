// The .npy format's header, both ways: the magic, the version, and the header dict
// ({'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }) that says how the raw data after
// it is laid out. One place for it: the operand export (npy.cpp) writes it, the weight reader
// (core/weights) reads it. Header only: what the data holds is the caller's business.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace spmma {

struct NpyHeader {
    int major_version = 1;           // 1, 2 or 3 (2 and 3: a 4-byte header length; 3: UTF-8)
    std::string descr;               // the dtype string as written: "<f4", "|i1", "<V2", ...
    bool fortran_order = false;
    std::vector<int64_t> shape;      // () for a scalar
    size_t data_offset = 0;          // bytes before the data: magic, version, length, dict
};

// The largest header dict read (numpy.load's own limit, _MAX_HEADER_SIZE).
constexpr size_t kNpyMaxHeaderBytes = 10000;

// Parses the header at the start of `bytes` (the file, or at least its first data_offset bytes).
// Throws std::invalid_argument with the reason: not a .npy file, an unknown version, a header
// longer than the bytes or than kNpyMaxHeaderBytes, a dict that is not exactly the three keys
// with a string descr (a structured dtype's list is refused), a bool and a tuple of
// non-negative integers, or a shape whose element count overflows int64.
NpyHeader parse_npy_header(std::string_view bytes);

// Elements of a shape (1 for ()); throws std::invalid_argument for a negative dimension or a
// product that overflows int64.
int64_t npy_element_count(const std::vector<int64_t>& shape);

// The bytes before the data of a version 1.0 file holding `descr` in C order: magic, version,
// length and the dict, padded with spaces and a newline to a multiple of 64 bytes.
std::string format_npy_header(std::string_view descr, const std::vector<int64_t>& shape);

}  // namespace spmma
