// The one error a weight file gives: the file (or folder) and the reason, as the user should
// read it ("model.safetensors: tensor \"w\": data_offsets [0, 96] hold 96 bytes, F16 [4,8] is
// 64"). spmma turns it into exit 2.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

namespace spmma::weights {

class WeightsError : public std::runtime_error {
public:
    WeightsError(const std::filesystem::path& file, const std::string& reason)
        : std::runtime_error(file.string() + ": " + reason), file(file), reason(reason) {}
    std::filesystem::path file;
    std::string reason;
};

// A name from a file as it may be shown: JSON-quoted, so that a control character or a quote in
// an untrusted tensor name cannot disguise the message around it.
std::string quote_name(const std::string& name);

}  // namespace spmma::weights
