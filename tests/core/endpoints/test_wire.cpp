// The wire between spmma and a worker: a message and its descriptors arrive together, and the
// descriptors of a message that is refused are closed, not left to whoever reads next.
#include "open_descriptors.hpp"

#include <spmma/core/wire.hpp>

#include <catch2/catch.hpp>

#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <string>

using namespace spmma;

namespace {

struct SocketPair {
    int a = -1, b = -1;
    SocketPair() {
        int sv[2];
        REQUIRE(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
        a = sv[0];
        b = sv[1];
    }
    ~SocketPair() {
        close(a);
        close(b);
    }
};

// Writes `bytes` raw on `s` with descriptor `fd` riding on them, as wire::send would.
void send_raw(int s, const std::string& bytes, int fd) {
    iovec io{const_cast<char*>(bytes.data()), bytes.size()};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
    msghdr msg{};
    msg.msg_iov = &io;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    cmsghdr* c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    std::memcpy(CMSG_DATA(c), &fd, sizeof fd);
    REQUIRE(sendmsg(s, &msg, MSG_NOSIGNAL) == static_cast<ssize_t>(bytes.size()));
}

std::string framed(const std::string& text) {
    const auto len = static_cast<uint32_t>(text.size());
    return std::string(reinterpret_cast<const char*>(&len), sizeof len) + text;
}

}  // namespace

TEST_CASE("a message arrives with its descriptors", "[wire]") {
    SocketPair s;
    REQUIRE(wire::send(s.a, {{"op", "x"}}, {s.a}));
    wire::Message m;
    REQUIRE(wire::receive(s.b, m, std::nullopt) == wire::ReceiveStatus::Ok);
    CHECK(m.body == nlohmann::json{{"op", "x"}});
    REQUIRE(m.fds.size() == 1);
    close(m.fds[0]);
}

TEST_CASE("the descriptors of a message that is not JSON are closed when it is refused", "[wire]") {
    SocketPair s;
    const int before = open_descriptors();
    send_raw(s.a, framed("{not json"), s.a);
    wire::Message m;
    CHECK(wire::receive(s.b, m, std::nullopt) == wire::ReceiveStatus::Bad);
    CHECK(m.fds.empty());
    CHECK(open_descriptors() == before);
}

TEST_CASE("the descriptors of a message longer than the limit are closed when it is refused", "[wire]") {
    SocketPair s;
    const int before = open_descriptors();
    const uint32_t too_long = 0xFFFFFFFFu;
    send_raw(s.a, std::string(reinterpret_cast<const char*>(&too_long), sizeof too_long), s.a);
    wire::Message m;
    CHECK(wire::receive(s.b, m, std::nullopt) == wire::ReceiveStatus::Bad);
    CHECK(m.fds.empty());
    CHECK(open_descriptors() == before);
}

TEST_CASE("the descriptors of a message cut off by the peer closing are closed", "[wire]") {
    SocketPair s;
    const int before = open_descriptors();
    send_raw(s.a, framed("{\"op\": \"x\"}").substr(0, 8), s.a);
    shutdown(s.a, SHUT_WR);
    wire::Message m;
    CHECK(wire::receive(s.b, m, std::nullopt) == wire::ReceiveStatus::Closed);
    CHECK(m.fds.empty());
    CHECK(open_descriptors() == before);
}
