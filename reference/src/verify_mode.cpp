#include <spmma/reference/verify.hpp>

namespace spmma::reference {

const char* to_string(VerifyMode m) {
    switch (m) {
        case VerifyMode::Full: return "full";
        case VerifyMode::Sampled: return "sampled";
        case VerifyMode::Auto: return "auto";
        case VerifyMode::None: return "none";
    }
    return "?";
}

bool parse_verify_mode(const std::string& s, VerifyMode& out) {
    for (VerifyMode m : {VerifyMode::Full, VerifyMode::Sampled, VerifyMode::Auto, VerifyMode::None})
        if (s == to_string(m)) {
            out = m;
            return true;
        }
    return false;
}

}  // namespace spmma::reference
