#include <spmma/weights/weights_error.hpp>

#include <nlohmann/json.hpp>

namespace spmma::weights {

std::string quote_name(const std::string& name) {
    // Invalid UTF-8 is shown with U+FFFD rather than refused: the message must always be made.
    return nlohmann::json(name).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace spmma::weights
