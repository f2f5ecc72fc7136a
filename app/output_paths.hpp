// The files a command writes, checked before anything is written: no two outputs and no output
// and input name one file (standard output, "-", counts as one file too), and an existing record
// file is replaced only when asked.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace spmma::app {

struct NamedPath {
    std::string what;  // the flag or argument ("--json", "the workload")
    std::string path;
};

// "--json and --csv name the same file (x)"; nullopt when all differ. Empty paths are ignored.
std::optional<std::string> same_file(const std::vector<NamedPath>& inputs, const std::vector<NamedPath>& outputs);

// A regular file at `path` with something in it, which writing `what` anew would truncate: the
// message saying how to keep or replace it (`keep` names the option that keeps it, or "").
std::optional<std::string> would_replace(const NamedPath& out, const std::string& keep);

// The command line as given, each word shell-quoted (for messages and a record file's lock).
std::string command_line();
void set_command_line(int argc, char** argv);

}  // namespace spmma::app
