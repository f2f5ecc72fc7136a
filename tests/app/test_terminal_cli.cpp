// spmma on a terminal: run under a pseudo-terminal of 80 columns (COLUMNS=80), no table or
// progress line is wider than 80 columns, FAILED is in colour, and neither colour nor a progress
// line reaches a pipe or a terminal with NO_COLOR set.
#include "cli.hpp"

#include <spmma/core/terminal_progress.hpp>

#include <catch2/catch.hpp>

#include <pty.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <regex>
#include <vector>

namespace {

// A run of the pace plugin (each launch 150 ms: a second of timed work per problem, long enough
// for the progress line) whose results are zeros, so --verify full fails every record.
const std::string kPaceRun = "gemm --m 64,96 --n 32 --k 128 --dtype f16 --warmup 0 --iterations 6 --verify full --plugin pace --plugin-dir " SPMMA_PACE_PLUGIN_DIR;

// Runs spmma on a pseudo-terminal of 80 x 24 with COLUMNS=80 and `env` ("NAME=value" each), its
// standard output and error both the terminal; what the terminal received and the exit code.
CliResult spmma_tty(const std::string& args, const std::vector<std::string>& env) {
    winsize size{};
    size.ws_row = 24;
    size.ws_col = 80;
    int master = -1;
    const pid_t pid = forkpty(&master, nullptr, nullptr, &size);
    if (pid < 0) FAIL("forkpty failed");
    if (pid == 0) {
        ::setenv("COLUMNS", "80", 1);
        ::setenv("SPMMA_TEST_PACE_US", "150000", 1);
        ::unsetenv("NO_COLOR");
        for (const auto& e : env) ::setenv(e.substr(0, e.find('=')).c_str(), e.substr(e.find('=') + 1).c_str(), 1);
        const std::string cmd = std::string(SPMMA_EXE) + " " + args;
        ::execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    CliResult r;
    char buf[4096];
    for (;;) {
        const ssize_t n = ::read(master, buf, sizeof buf);
        if (n > 0) r.out.append(buf, static_cast<size_t>(n));
        else if (n < 0 && errno == EINTR) continue;
        else break;  // EIO: the terminal's last writer has gone
    }
    ::close(master);
    int status = 0;
    ::waitpid(pid, &status, 0);
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

// The widest thing drawn from the start of a line: the text between two line ends or carriage
// returns (each starts at column 0), escape sequences left out, one column per character.
size_t widest_line(const std::string& out) {
    static const std::regex escape("\033\\[[0-9;?]*[A-Za-z]");
    const std::string plain = std::regex_replace(out, escape, "");
    size_t widest = 0, width = 0;
    for (const char c : plain) {
        if (c == '\n' || c == '\r') {
            widest = std::max(widest, width);
            width = 0;
        } else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {
            ++width;
        }
    }
    return std::max(widest, width);
}

bool has_colour(const std::string& out) { return std::regex_search(out, std::regex("\033\\[[0-9;]*m")); }

}  // namespace

TEST_CASE("at 80 columns on a terminal the table and the progress line fit, and FAILED is red", "[cli][terminal]") {
    const auto r = spmma_tty(kPaceRun, {});
    INFO(r.out);
    CHECK(r.code == 1);
    CHECK_THAT(r.out, Catch::Contains("ETA"));                   // the progress line was drawn
    CHECK_THAT(r.out, Catch::Contains("on pace"));               // with the problem and the plugin
    CHECK_THAT(r.out, Catch::Contains("\033[1;31mFAILED\033[0m"));
    CHECK_THAT(r.out, Catch::Contains("FAILED full:"));          // the reason, on lines of its own
    CHECK_THAT(r.out, !Catch::Contains("GPU busy"));             // no GPU ran
    CHECK(widest_line(r.out) <= 80);
    // --wide keeps every cell whole: the same run is wider than the terminal.
    const auto wide = spmma_tty(kPaceRun + " --wide --no-progress", {});
    INFO(wide.out);
    CHECK(widest_line(wide.out) > 80);
    CHECK_THAT(wide.out, !Catch::Contains("ETA"));
}

TEST_CASE("NO_COLOR and a pipe get no colour", "[cli][terminal]") {
    const auto no_colour = spmma_tty(kPaceRun, {"NO_COLOR=1"});
    INFO(no_colour.out);
    CHECK_THAT(no_colour.out, Catch::Contains("FAILED"));
    CHECK_FALSE(has_colour(no_colour.out));
    CHECK(widest_line(no_colour.out) <= 80);
    const auto piped = spmma_cli_env("SPMMA_TEST_PACE_US=150000", kPaceRun);
    INFO(piped.out);
    CHECK_THAT(piped.out, Catch::Contains("FAILED"));
    CHECK_THAT(piped.out, !Catch::Contains("\033["));  // no colour and no progress line
    CHECK(widest_line(piped.out) <= 80);
}

TEST_CASE("the progress line fits its width and shows the problem, plugin, elapsed time and ETA", "[terminal]") {
    const std::string what = "16384x16384x16384 e2m1*e2m1+f32->f32 4:8 ue4m3/16 on sm100a (device 1)";
    for (size_t width : {40, 80, 132}) {
        const std::string l = spmma::TerminalProgress::line(3, 12, 75.0, what, width);
        INFO(l);
        CHECK(l.size() <= width - 1);
        CHECK_THAT(l, Catch::StartsWith("[4/12] ["));
        CHECK_THAT(l, Catch::Contains("1:15, ETA 3:45"));
    }
    CHECK_THAT(spmma::TerminalProgress::line(3, 12, 75.0, what, 132), Catch::EndsWith(what));
    CHECK_THAT(spmma::TerminalProgress::line(6, 12, 10.0, what, 80), Catch::Contains("[#####.....]"));
    CHECK_THAT(spmma::TerminalProgress::line(0, 12, 1.0, what, 80), Catch::Contains("ETA ?"));
}
