// The C ABI boundary for plugins written in C++: errors become status codes and a per-thread
// message, growing structs are copied by their struct_size, strings go into caller buffers.
// Plugins see only <spmma/plugin.h>; this header adds nothing from spmma's core.
#pragma once

#include <spmma/plugin.h>

#include <algorithm>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>

namespace spmma_plugin {

// An error with the status it maps to at the boundary.
class Error : public std::runtime_error {
public:
    Error(spmma_status status, const std::string& message) : std::runtime_error(message), status_(status) {}
    spmma_status status() const { return status_; }

private:
    spmma_status status_;
};

[[noreturn]] inline void fail(spmma_status status, const std::string& message) { throw Error(status, message); }
[[noreturn]] inline void unsupported(const std::string& reason) { throw Error(SPMMA_UNSUPPORTED, reason); }

// The calling thread's last error message (what last_error returns).
std::string& last_error_message();

size_t copy_last_error(char* buffer, size_t size);

// Copies s into a caller buffer, NUL-terminated, truncated to size.
inline void write_string(char* buffer, size_t size, std::string_view s) {
    if (!buffer || size == 0) return;
    const size_t n = std::min(size - 1, s.size());
    std::memcpy(buffer, s.data(), n);
    buffer[n] = '\0';
}

// Runs f at the boundary: OK, or the status of what it threw with its message recorded.
template <class F>
spmma_status guarded(F&& f) noexcept {
    try {
        f();
        last_error_message().clear();
        return SPMMA_OK;
    } catch (const Error& e) {
        last_error_message() = e.what();
        return e.status();
    } catch (const std::bad_alloc&) {
        last_error_message() = "out of host memory";
        return SPMMA_OUT_OF_MEMORY;
    } catch (const std::exception& e) {
        last_error_message() = e.what();
        return SPMMA_INTERNAL_ERROR;
    } catch (...) {
        last_error_message() = "unknown exception";
        return SPMMA_INTERNAL_ERROR;
    }
}

// An in-struct from the host, copied by the smaller of the two sizes into a zeroed struct.
template <class T>
T copy_in(const T* in) {
    if (!in) fail(SPMMA_INVALID_ARGUMENT, "null struct pointer");
    if (in->struct_size < sizeof(uint32_t)) fail(SPMMA_INVALID_ARGUMENT, "struct_size is 0");
    T out{};
    std::memcpy(&out, in, std::min<size_t>(in->struct_size, sizeof(T)));
    out.struct_size = sizeof(T);
    return out;
}

// An out-struct for the host: writes the fields that fit in the host's struct_size.
template <class T>
void copy_out(T* out, const T& value) {
    if (!out) fail(SPMMA_INVALID_ARGUMENT, "null struct pointer");
    const size_t n = std::min<size_t>(out->struct_size, sizeof(T));
    if (n < sizeof(uint32_t)) fail(SPMMA_INVALID_ARGUMENT, "struct_size is 0");
    const uint32_t host_size = out->struct_size;
    std::memcpy(out, &value, n);
    out->struct_size = host_size;
}

}  // namespace spmma_plugin
