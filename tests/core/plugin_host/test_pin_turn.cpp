// SharedMemory::PinTurn: processes that map one region take turns pinning it.
#include <spmma/core/shared_memory.hpp>

#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>

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

TEST_CASE("pinning for a device that is not there does not wait for another process's turn") {
    SharedMemory region = SharedMemory::create(4096, "pin-turn-test");
    int ready[2];
    REQUIRE(pipe(ready) == 0);
    const pid_t holder = fork();
    if (holder == 0) {  // holds the region's turn for 5 s
        const int own = open(fmt::format("/proc/self/fd/{}", region.fd()).c_str(), O_RDWR);
        if (own < 0 || flock(own, LOCK_EX) != 0) _exit(2);
        if (write(ready[1], "x", 1) != 1) _exit(3);
        sleep(5);
        _exit(0);
    }
    close(ready[1]);
    char byte = 0;
    REQUIRE(read(ready[0], &byte, 1) == 1);
    close(ready[0]);
    // With no such GPU (or no driver at all) pin_for fails in the step before its turn: making
    // the device's context, which each process does on its own.
    const auto t0 = std::chrono::steady_clock::now();
    CHECK_FALSE(region.pin_for("GPU-00000000-0000-0000-0000-000000000000"));
    const double waited_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CHECK(waited_s < 2.5);
    kill(holder, SIGKILL);
    waitpid(holder, nullptr, 0);
}
