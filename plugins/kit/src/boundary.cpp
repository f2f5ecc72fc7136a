#include <spmma_plugin/boundary.hpp>

namespace spmma_plugin {

std::string& last_error_message() {
    thread_local std::string message;
    return message;
}

size_t copy_last_error(char* buffer, size_t size) {
    const std::string& m = last_error_message();
    write_string(buffer, size, m);
    return m.size();
}

}  // namespace spmma_plugin
