#include "interruption.hpp"

#include <spmma/core/endpoint.hpp>

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>

namespace spmma::app {
namespace {

std::atomic<int> g_signal{0};
int g_pipe[2] = {-1, -1};  // the handler wakes the watcher through it

// NOTES: async-signal-safe only: an atomic store, write(2), _exit(2).
void on_signal(int sig) {
    int none = 0;
    if (!g_signal.compare_exchange_strong(none, sig)) _exit(128 + sig);  // the second signal
    const char wake = 's';
    [[maybe_unused]] const ssize_t w = write(g_pipe[1], &wake, 1);
}

void watch() {
    for (;;) {
        char c = 0;
        const ssize_t n = read(g_pipe[0], &c, 1);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0 || c == 'q') return;
        end_all_workers();
    }
}

}  // namespace

Interruption::Interruption() {
    g_signal = 0;
    if (pipe2(g_pipe, O_CLOEXEC) != 0) return;  // no watcher: a signal ends spmma as it always did
    watcher_ = std::thread(watch);
    struct sigaction sa{};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
}

Interruption::~Interruption() {
    if (!watcher_.joinable()) return;
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
    const char quit = 'q';
    [[maybe_unused]] const ssize_t w = write(g_pipe[1], &quit, 1);
    watcher_.join();
    close(g_pipe[0]);
    close(g_pipe[1]);
    g_pipe[0] = g_pipe[1] = -1;
}

const std::atomic<int>& Interruption::signal() const { return g_signal; }

}  // namespace spmma::app
