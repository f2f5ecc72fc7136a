#include <spmma/core/worker_process.hpp>

#include <spmma/core/endpoint.hpp>

#include <fmt/format.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <mutex>
#include <set>
#include <thread>

extern char** environ;

namespace spmma::detail {
namespace {

constexpr size_t kTailBytes = 2000;

// NOTES: every live worker of this process, so that a signal's watcher can end them all at once
// (end_all_workers) while the runner waits on one. A pid leaves the set in the same locked step
// that reaps it, so a pid killed here is never one the system has given to another process.
struct Registry {
    std::mutex mutex;
    std::set<pid_t> live;
    bool ended = false;
};
Registry& registry() {
    static Registry r;
    return r;
}

std::string signal_name(int sig) {
    const char* abbrev = sigabbrev_np(sig);
    return abbrev ? std::string("SIG") + abbrev : fmt::format("signal {}", sig);
}

}  // namespace

WorkerProcess::WorkerProcess(const std::filesystem::path& exe, std::string label) : label_(std::move(label)) {
    int sv[2], pipe_fds[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) throw std::runtime_error(fmt::format("socketpair: {}", strerror(errno)));
    if (pipe2(pipe_fds, O_CLOEXEC) != 0) {
        close(sv[0]);
        close(sv[1]);
        throw std::runtime_error(fmt::format("pipe: {}", strerror(errno)));
    }
    // NOTES: each worker in a process group of its own, so a terminal's Ctrl-C reaches spmma
    // alone, which ends the workers itself (a worker dying of it first would be a crash record).
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    // NOTES: dup2 onto 1, 2 and 3 clears close-on-exec there; the worker's stdout goes to the
    // same pipe as its stderr, so a plugin's prints never mix with spmma's own standard output.
    posix_spawn_file_actions_adddup2(&actions, sv[1], 3);
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 1);
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 2);
    const std::string exe_s = exe.string();
    char* argv[] = {const_cast<char*>(exe_s.c_str()), const_cast<char*>("worker"), const_cast<char*>("--fd"), const_cast<char*>("3"), nullptr};
    int rc = 0;
    {
        std::lock_guard lock(registry().mutex);
        rc = registry().ended ? ECANCELED : posix_spawn(&pid_, exe_s.c_str(), &actions, &attr, argv, environ);
        if (rc == 0) registry().live.insert(pid_);
    }
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    close(sv[1]);
    close(pipe_fds[1]);
    if (rc != 0) {  // no destructor runs for a constructor that throws: our ends are closed here
        pid_ = -1;
        close(sv[0]);
        close(pipe_fds[0]);
        if (rc == ECANCELED) throw WorkerLost("the run was interrupted", "start");
        throw std::runtime_error(fmt::format("cannot start a worker ({}): {}", exe_s, strerror(rc)));
    }
    sock_ = sv[0];
    out_ = pipe_fds[0];
}

WorkerProcess::~WorkerProcess() {
    if (sock_ >= 0) close(sock_);  // the worker sees the end of its requests and exits
    if (pid_ > 0) reap(2.0);
    if (out_ >= 0) {
        drain(out_);
        close(out_);
    }
}

void WorkerProcess::close_requests() {
    if (sock_ >= 0) close(sock_);
    sock_ = -1;
}

void WorkerProcess::send(const nlohmann::json& body, const std::vector<int>& fds, const std::string& stage) {
    stage_ = stage;
    tail_.clear();
    if (pid_ <= 0) lost("no worker");
    if (!wire::send(sock_, body, fds)) lost(reap(2.0));
}

nlohmann::json WorkerProcess::await(double timeout_s, const std::function<void(const std::string&)>& on_stage) {
    for (;;) {
        wire::Deadline deadline;
        // NOTES: capped at 1e9 s, whose nanoseconds still fit the clock's count (1e10 s wrapped
        // into a deadline already past).
        if (timeout_s > 0)
            deadline = std::chrono::steady_clock::now() +
                       std::chrono::milliseconds(static_cast<long long>(std::ceil(std::min(timeout_s, 1e9) * 1e3)));
        wire::Message m;
        const auto st = wire::receive(sock_, m, deadline, {out_}, [this](int fd) { drain(fd); });
        if (st == wire::ReceiveStatus::TimedOut) {
            kill(pid_, SIGKILL);
            reap(5.0);
            lost(fmt::format("timeout after {:g} s", timeout_s));
        }
        if (st != wire::ReceiveStatus::Ok) lost(reap(5.0));
        for (int fd : m.fds) close(fd);
        if (m.body.contains("stage")) {
            stage_ = m.body["stage"].get<std::string>();
            if (on_stage) on_stage(stage_);
            continue;
        }
        return m.body;
    }
}

void WorkerProcess::lost(const std::string& how) {
    if (out_ >= 0) drain(out_);
    std::string msg = fmt::format("{} in {}", how, stage_);
    std::string tail = tail_ + partial_;
    while (!tail.empty() && (tail.back() == '\n' || tail.back() == ' ')) tail.pop_back();
    if (!tail.empty()) msg += fmt::format(" (its last output: {})", tail.size() > 400 ? "..." + tail.substr(tail.size() - 400) : tail);
    close_requests();
    throw WorkerLost(msg, stage_);
}

std::string WorkerProcess::reap(double wait_s) {
    if (pid_ <= 0) return "the worker is gone";
    int status = 0;
    const auto try_wait = [&] {
        std::lock_guard lock(registry().mutex);
        const pid_t r = waitpid(pid_, &status, WNOHANG);
        if (r != 0) registry().live.erase(pid_);
        return r;
    };
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(wait_s);
    pid_t r;
    while ((r = try_wait()) == 0 && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    if (r == 0) {  // closed its socket but lives on: end it
        kill(pid_, SIGKILL);
        while ((r = try_wait()) == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    pid_ = -1;
    if (r < 0) return "the worker ended (status unknown)";
    if (WIFSIGNALED(status)) return "crashed: " + signal_name(WTERMSIG(status));
    if (WIFEXITED(status)) return fmt::format("exited with {}", WEXITSTATUS(status));
    return "the worker ended";
}

void WorkerProcess::drain(int fd) {
    char buf[4096];
    for (;;) {
        pollfd p{fd, POLLIN, 0};
        if (poll(&p, 1, 0) <= 0 || !(p.revents & POLLIN)) return;
        const ssize_t n = read(fd, buf, sizeof buf);
        if (n <= 0) return;
        partial_.append(buf, static_cast<size_t>(n));
        size_t nl;
        while ((nl = partial_.find('\n')) != std::string::npos) {
            const std::string line = partial_.substr(0, nl + 1);
            partial_.erase(0, nl + 1);
            fmt::print(stderr, "[{}] {}", label_, line);
            tail_ += line;
            if (tail_.size() > kTailBytes) tail_.erase(0, tail_.size() - kTailBytes);
        }
    }
}

}  // namespace spmma::detail

namespace spmma {

void end_all_workers() {
    auto& reg = detail::registry();
    std::lock_guard lock(reg.mutex);
    reg.ended = true;
    for (pid_t p : reg.live) kill(p, SIGKILL);
}

}  // namespace spmma
