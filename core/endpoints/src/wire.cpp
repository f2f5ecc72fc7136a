#include <spmma/core/wire.hpp>

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace spmma::wire {
namespace {

constexpr size_t kMaxFds = 8;
constexpr uint32_t kMaxBytes = 1u << 30;

bool send_all(int s, const char* p, size_t n) {
    while (n > 0) {
        const ssize_t w = ::send(s, p, n, MSG_NOSIGNAL);
        if (w < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        p += w;
        n -= static_cast<size_t>(w);
    }
    return true;
}

// Waits until `socket` is readable, serving `watch` meanwhile.
ReceiveStatus wait_readable(int socket, Deadline deadline, const std::vector<int>& watch, const std::function<void(int)>& idle) {
    std::vector<pollfd> fds{{socket, POLLIN, 0}};
    for (int w : watch)
        if (w >= 0) fds.push_back({w, POLLIN, 0});
    for (;;) {
        int timeout = -1;
        if (deadline) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - std::chrono::steady_clock::now()).count();
            if (left <= 0) return ReceiveStatus::TimedOut;
            timeout = static_cast<int>(std::min<long long>(left, 1 << 30));
        }
        const int r = ::poll(fds.data(), fds.size(), timeout);
        if (r < 0) {
            if (errno == EINTR) continue;
            return ReceiveStatus::Bad;
        }
        if (r == 0) continue;  // the deadline is checked above
        for (size_t i = 1; i < fds.size(); ++i)
            if (fds[i].revents) {
                if (idle) idle(fds[i].fd);
                if (fds[i].revents & (POLLHUP | POLLERR | POLLNVAL)) fds[i].fd = -1;  // stop watching a closed pipe
            }
        if (fds[0].revents) return ReceiveStatus::Ok;
    }
}

// Reads exactly n bytes (the first read also takes any descriptors).
ReceiveStatus read_all(int s, char* p, size_t n, Deadline deadline, std::vector<int>* fds, const std::vector<int>& watch,
                       const std::function<void(int)>& idle) {
    while (n > 0) {
        if (const auto w = wait_readable(s, deadline, watch, idle); w != ReceiveStatus::Ok) return w;
        iovec io{p, n};
        alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxFds)];
        msghdr msg{};
        msg.msg_iov = &io;
        msg.msg_iovlen = 1;
        if (fds) {
            msg.msg_control = control;
            msg.msg_controllen = sizeof control;
        }
        const ssize_t r = ::recvmsg(s, &msg, MSG_CMSG_CLOEXEC);
        if (r < 0) {
            if (errno == EINTR || errno == EAGAIN) continue;
            return ReceiveStatus::Closed;
        }
        if (r == 0) return ReceiveStatus::Closed;
        if (fds)
            for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
                if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
                    const size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
                    for (size_t i = 0; i < count; ++i) {
                        int fd;
                        std::memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
                        fds->push_back(fd);
                    }
                }
        fds = nullptr;  // descriptors ride on the first bytes only
        p += r;
        n -= static_cast<size_t>(r);
    }
    return ReceiveStatus::Ok;
}

}  // namespace

bool send(int socket, const nlohmann::json& body, const std::vector<int>& fds) {
    const std::string text = body.dump();
    const auto len = static_cast<uint32_t>(text.size());
    iovec io{const_cast<uint32_t*>(&len), sizeof len};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxFds)] = {};
    msghdr msg{};
    msg.msg_iov = &io;
    msg.msg_iovlen = 1;
    if (!fds.empty()) {
        if (fds.size() > kMaxFds) return false;
        msg.msg_control = control;
        msg.msg_controllen = CMSG_SPACE(sizeof(int) * fds.size());
        cmsghdr* c = CMSG_FIRSTHDR(&msg);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
        std::memcpy(CMSG_DATA(c), fds.data(), sizeof(int) * fds.size());
    }
    ssize_t w;
    do {
        w = ::sendmsg(socket, &msg, MSG_NOSIGNAL);
    } while (w < 0 && errno == EINTR);
    if (w < 0) return false;
    if (static_cast<size_t>(w) < sizeof len && !send_all(socket, reinterpret_cast<const char*>(&len) + w, sizeof len - static_cast<size_t>(w)))
        return false;
    return send_all(socket, text.data(), text.size());
}

namespace {

ReceiveStatus receive_into(int socket, Message& out, Deadline deadline, const std::vector<int>& watch, const std::function<void(int)>& idle) {
    uint32_t len = 0;
    if (const auto r = read_all(socket, reinterpret_cast<char*>(&len), sizeof len, deadline, &out.fds, watch, idle); r != ReceiveStatus::Ok)
        return r;
    if (len > kMaxBytes) return ReceiveStatus::Bad;
    std::string text(len, '\0');
    if (const auto r = read_all(socket, text.data(), len, deadline, nullptr, watch, idle); r != ReceiveStatus::Ok) return r;
    try {
        out.body = nlohmann::json::parse(text);
    } catch (const std::exception&) {
        return ReceiveStatus::Bad;
    }
    return ReceiveStatus::Ok;
}

}  // namespace

ReceiveStatus receive(int socket, Message& out, Deadline deadline, const std::vector<int>& watch, const std::function<void(int)>& idle) {
    out = {};
    const ReceiveStatus r = receive_into(socket, out, deadline, watch, idle);
    if (r != ReceiveStatus::Ok) {  // no message: nobody else will close what came with it
        for (int fd : out.fds) close(fd);
        out.fds.clear();
    }
    return r;
}

}  // namespace spmma::wire
