// SHA-256 (FIPS 180-4) of a file, as lowercase hex: records name the exact plugin binary they ran.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace spmma {

std::string sha256_hex(std::string_view bytes);
// Throws std::runtime_error when the file cannot be read.
std::string sha256_file(const std::filesystem::path& file);

}  // namespace spmma
