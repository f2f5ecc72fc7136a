// libFuzzer entry: any bytes as a safetensors file. The parser must accept them or refuse them
// with a WeightsError; every tensor it accepts must lie inside the bytes (each tensor's first
// and last byte are read, so AddressSanitizer catches an offset past the end).
#include <spmma/weights/safetensors.hpp>
#include <spmma/weights/weights_error.hpp>

#include <cstddef>
#include <cstdint>

// Where the bytes read go, so that the reads are not optimised away.
volatile unsigned sink = 0;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::span<const std::byte> file(reinterpret_cast<const std::byte*>(data), size);
    try {
        const auto layout = spmma::weights::parse_safetensors(file, "fuzz.safetensors");
        for (const auto& t : layout.tensors) {
            if (t.end == t.begin) continue;
            const auto bytes = file.subspan(layout.data_offset + t.begin, t.end - t.begin);
            sink = static_cast<unsigned>(bytes.front()) + static_cast<unsigned>(bytes.back());
        }
    } catch (const spmma::weights::WeightsError&) {
    }
    return 0;
}
