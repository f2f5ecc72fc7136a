// Running one of bench/'s Python scripts from a test: scratch folders, the script's exit status
// and what it printed, and a whole-line search in its output.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace bench_test {

namespace fs = std::filesystem;

inline const fs::path kSource = SPMMA_SOURCE_DIR;

// An empty folder under the build tree, named for the test.
inline fs::path scratch(const std::string& name) {
    auto dir = fs::path(SPMMA_BINARY_DIR) / "test-scratch" / name;
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

inline std::string slurp(const fs::path& f) {
    std::ifstream in(f, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

struct Run {
    int status = -1;
    std::string out, err;
};

// A path as one shell word (single-quoted; the scratch folders hold no quote).
inline std::string quoted(const fs::path& p) { return "'" + p.string() + "'"; }

// "cd SOURCE && python3 SCRIPT ARGS > DIR/out 2> DIR/err" (SCRIPT relative to the source tree).
inline Run run_script(const std::string& script, const std::string& args, const fs::path& dir) {
    std::ostringstream cmd;
    cmd << "cd '" << kSource.string() << "' && python3 " << script << " " << args << " > '"
        << (dir / "out").string() << "' 2> '" << (dir / "err").string() << "'";
    const int raw = std::system(cmd.str().c_str());
    Run r;
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    r.out = slurp(dir / "out");
    r.err = slurp(dir / "err");
    return r;
}

inline bool has_line(const std::string& text, const std::string& line) {
    return ("\n" + text).find("\n" + line + "\n") != std::string::npos;
}

}  // namespace bench_test
