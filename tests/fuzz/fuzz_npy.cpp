// libFuzzer entry: any bytes as a .npy file. The header parser (core's npy_format) and the
// weight reader must accept them or refuse them with their error; an accepted array must lie
// inside the bytes (its first and last byte are read, for AddressSanitizer).
#include <spmma/weights/npy_file.hpp>
#include <spmma/weights/weights_error.hpp>

#include <cstddef>
#include <cstdint>

// Where the bytes read go, so that the reads are not optimised away.
volatile unsigned sink = 0;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::span<const std::byte> file(reinterpret_cast<const std::byte*>(data), size);
    try {
        const auto layout = spmma::weights::parse_npy(file, "fuzz.npy");
        if (layout.data_offset < size) sink = static_cast<unsigned>(file[layout.data_offset]) + static_cast<unsigned>(file[size - 1]);
    } catch (const spmma::weights::WeightsError&) {
    }
    return 0;
}
