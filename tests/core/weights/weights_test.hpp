// What the weight tests share: safetensors bytes made by hand (so a test can make the header lie),
// files written into a scratch folder, and the check that an error names the file and the reason.
#pragma once

#include <spmma/weights/weights_error.hpp>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

namespace spmma::test {

// 8-byte little-endian length, then the header text, then the data; `length` overrides the
// length written (a lying file).
inline std::string safetensors_bytes(const std::string& header, const std::string& data, std::optional<uint64_t> length = std::nullopt) {
    const uint64_t n = length ? *length : header.size();
    std::string out;
    for (int i = 0; i < 8; ++i) out += static_cast<char>((n >> (8 * i)) & 0xff);
    return out + header + data;
}

// A fresh folder; each test case names its own (ctest runs the cases side by side).
inline std::filesystem::path scratch_dir(const std::string& name) {
    const auto dir = std::filesystem::path(SPMMA_WEIGHTS_SCRATCH) / name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

inline std::filesystem::path write_bytes(const std::filesystem::path& file, const std::string& bytes) {
    std::filesystem::create_directories(file.parent_path());
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    REQUIRE(out.good());
    return file;
}

// A well-formed safetensors file of these tensors, data in the order given.
struct StTensor {
    std::string name, dtype;
    std::vector<int64_t> shape;
    std::string bytes;
};
inline std::string make_safetensors(const std::vector<StTensor>& tensors) {
    std::string header, data;
    for (const auto& t : tensors) {
        header += fmt::format(R"({}"{}":{{"dtype":"{}","shape":[{}],"data_offsets":[{},{}]}})", header.empty() ? "" : ",", t.name, t.dtype,
                              fmt::join(t.shape, ","), data.size(), data.size() + t.bytes.size());
        data += t.bytes;
    }
    return safetensors_bytes("{" + header + "}", data);
}

// Element codes as the little-endian bytes of a tensor.
template <class T>
std::string raw(const std::vector<T>& v) {
    return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

// Runs `f`, which must throw WeightsError naming `file` with a reason holding `reason`.
template <class F>
void require_refused(F&& f, const std::filesystem::path& file, const std::string& reason) {
    try {
        f();
        FAIL("accepted; expected a refusal naming " << file << " and \"" << reason << "\"");
    } catch (const weights::WeightsError& e) {
        INFO(e.what());
        CHECK(e.file == file);
        CHECK(std::string(e.what()).rfind(file.string() + ": ", 0) == 0);
        CHECK(e.reason.find(reason) != std::string::npos);
    }
}

}  // namespace spmma::test
