// SharedMemory::PinTurn: processes that map one region take turns pinning it.
#include <spmma/core/shared_memory.hpp>

#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace spmma;

namespace {

// In a child process: 0 when a turn on `fd` could be taken at once, 1 when another holds it.
int child_finds_turn_taken(int fd) {
    const pid_t pid = fork();
    if (pid == 0) {
        const int own = open(fmt::format("/proc/self/fd/{}", fd).c_str(), O_RDWR);
        if (own < 0) _exit(2);
        _exit(flock(own, LOCK_EX | LOCK_NB) == 0 ? 0 : (errno == EWOULDBLOCK ? 1 : 3));
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

TEST_CASE("a pin turn keeps another process out of the region until it ends") {
    SharedMemory region = SharedMemory::create(4096, "pin-turn-test");
    {
        const SharedMemory::PinTurn turn(region.fd());
        REQUIRE(turn.held());
        CHECK(child_finds_turn_taken(region.fd()) == 1);
    }
    CHECK(child_finds_turn_taken(region.fd()) == 0);
}

TEST_CASE("a pin turn survives the holder closing another descriptor of the region") {
    SharedMemory region = SharedMemory::create(4096, "pin-turn-test");
    const SharedMemory::PinTurn turn(region.fd());
    REQUIRE(turn.held());
    close(dup(region.fd()));  // a worker closes a repeated descriptor of a region it has mapped
    CHECK(child_finds_turn_taken(region.fd()) == 1);
}
