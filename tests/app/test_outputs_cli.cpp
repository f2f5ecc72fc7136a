// Outputs that lose nothing: a full disk or a file-size limit stops the run with exit 1 naming
// the file and what reached it (no torn record), outputs that name one file or an input are
// refused, an existing record file is kept unless --resume or --force, one writer per file, and
// --resume's kept records count everywhere as if the run had not been interrupted.
#include "cli.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <sys/file.h>
#include <sys/resource.h>
#include <fcntl.h>
#include <unistd.h>

#include <sstream>

namespace {

const std::string kQuick = std::string(SPMMA_SOURCE_DIR) + "/configs/quick.toml";
const std::string kCpu = " --plugin cpu --no-progress -q";

std::vector<nlohmann::json> records_of(const std::string& path) {
    std::vector<nlohmann::json> out;
    std::istringstream lines(read_file(path));
    for (std::string line; std::getline(lines, line);)
        if (!line.empty()) out.push_back(nlohmann::json::parse(line));
    return out;
}

// spmma run under a file-size limit (RLIMIT_FSIZE, SIGXFSZ ignored so writes fail with EFBIG).
CliResult run_with_file_limit(const std::string& args, rlim_t bytes) {
    const std::string cmd = std::string(SPMMA_EXE) + " " + args + " 2>&1";
    int fds[2];
    REQUIRE(pipe(fds) == 0);
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        signal(SIGXFSZ, SIG_IGN);
        const rlimit lim{bytes, bytes};
        setrlimit(RLIMIT_FSIZE, &lim);
        execl("/bin/sh", "sh", "-c", cmd.c_str(), nullptr);
        _exit(127);
    }
    close(fds[1]);
    CliResult r;
    char buf[4096];
    for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) r.out.append(buf, static_cast<size_t>(n));
    close(fds[0]);
    int st = 0;
    waitpid(pid, &st, 0);
    r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return r;
}

}  // namespace

TEST_CASE("a --json file on a full disk exits 1 naming the file and that no record reached it", "[cli][outputs]") {
    const auto r = spmma_cli("gemm --m 16 --n 16 --k 16 --json /dev/full" + kCpu);
    INFO(r.out);
    CHECK(r.code == 1);
    CHECK_THAT(r.out, Catch::Contains("cannot write /dev/full: No space left on device (record 1 not written; 0 records of this run reached it)") &&
                          Catch::Contains("plugin runs were not made"));
}

TEST_CASE("a --csv file or merge output on a full disk is refused (2) or fails (1) naming the file", "[cli][outputs]") {
    const auto c = spmma_cli("gemm --m 16 --n 16 --k 16 --csv /dev/full" + kCpu);
    INFO(c.out);
    CHECK(c.code == 2);  // the header cannot be written: refused before the run
    CHECK_THAT(c.out, Catch::Contains("cannot write /dev/full: No space left on device (the header not written)"));
    const std::string json = temp_path("for_merge.jsonl");
    REQUIRE(spmma_cli("gemm --m 16 --n 16 --k 16 --json " + json + kCpu).code == 0);
    const auto m = spmma_cli("merge " + json + " -o /dev/full");
    INFO(m.out);
    CHECK(m.code == 1);
    CHECK_THAT(m.out, Catch::Contains("cannot write /dev/full: No space left on device"));
}

TEST_CASE("a file-size limit mid-sweep stops the run with exit 1 and the file ends on its last whole record", "[cli][outputs]") {
    // A --resume file 300 kB long (records of another seed) under a limit 6 kB above it: the
    // limit is above the operand arenas, and the sweep's third or so record no longer fits.
    const std::string json = temp_path("limited.jsonl");
    REQUIRE(spmma_cli("gemm --m 16 --n 16 --k 16 --seed 7 --json " + json + kCpu).code == 0);
    const std::string one = read_file(json);
    std::string prefix;
    while (prefix.size() < 300000) prefix += one;
    write_file("limited.jsonl", prefix);
    const size_t before = records_of(json).size();
    const auto r = run_with_file_limit("run " + kQuick + " --resume --json " + json + kCpu, prefix.size() + 6000);
    INFO(r.out);
    CHECK(r.code == 1);
    CHECK_THAT(r.out, Catch::Contains("cannot write " + json + ": File too large"));
    const std::string text = read_file(json);
    CHECK(text.back() == '\n');
    const size_t made = records_of(json).size() - before;  // every line parses: no torn record
    CHECK(made >= 1);
    CHECK_THAT(r.out, Catch::Contains(std::to_string(made) + " records of this run reached it"));
}

TEST_CASE("outputs that name one file, or an input, are refused with exit 2", "[cli][outputs]") {
    const std::string x = temp_path("both.out");
    const auto r = spmma_cli("gemm --m 16 --n 16 --k 16 --json " + x + " --csv " + x + kCpu);
    INFO(r.out);
    CHECK(r.code == 2);
    CHECK_THAT(r.out, Catch::Contains("--json and --csv name the same file"));
    const std::string json = temp_path("report_in.jsonl");
    REQUIRE(spmma_cli("gemm --m 16 --n 16 --k 16 --json " + json + kCpu).code == 0);
    const std::string before = read_file(json);
    const auto rep = spmma_cli("report " + json + " -o " + json);
    INFO(rep.out);
    CHECK(rep.code == 2);
    CHECK_THAT(rep.out, Catch::Contains("writing it would destroy what is read"));
    CHECK(read_file(json) == before);
}

TEST_CASE("an existing record file is not truncated without --resume or --force", "[cli][outputs]") {
    const std::string json = temp_path("keep.jsonl");
    REQUIRE(spmma_cli("gemm --m 16 --n 16 --k 16 --json " + json + kCpu).code == 0);
    const std::string before = read_file(json);
    const auto r = spmma_cli("gemm --m 32 --n 16 --k 16 --json " + json + kCpu);
    INFO(r.out);
    CHECK(r.code == 2);
    CHECK_THAT(r.out, Catch::Contains("already holds records") && Catch::Contains("--resume keeps them") && Catch::Contains("--force replaces it"));
    CHECK(read_file(json) == before);
    const auto f = spmma_cli("gemm --m 32 --n 16 --k 16 --force --json " + json + kCpu);
    CHECK(f.code == 0);
    CHECK(records_of(json).at(0)["problem"]["m"] == 32);
}

TEST_CASE("a record file held by another writer is refused, naming the holder", "[cli][outputs]") {
    const std::string json = temp_path("locked.jsonl");
    const int fd = open((json + ".lock").c_str(), O_RDWR | O_CREAT, 0644);
    REQUIRE(fd >= 0);
    REQUIRE(flock(fd, LOCK_EX) == 0);
    const std::string who = "pid 4242 on somehost, since 2026-11-25T10:00:00Z: spmma run nightly.toml\n";
    REQUIRE(write(fd, who.data(), who.size()) == static_cast<ssize_t>(who.size()));
    const auto r = spmma_cli("gemm --m 16 --n 16 --k 16 --resume --json " + json + kCpu);
    close(fd);
    INFO(r.out);
    CHECK(r.code == 2);
    CHECK_THAT(r.out, Catch::Contains("is being written by another spmma (pid 4242 on somehost") && Catch::Contains("spmma run nightly.toml"));
}

TEST_CASE("records kept by --resume count in the summary, the exit code, JUnit and CSV as in one run", "[cli][outputs][sweep]") {
    const std::string json = temp_path("resumed.jsonl"), junit = temp_path("resumed.xml"), csv = temp_path("resumed.csv");
    // One failed record (as a pre-empted run left it): its run is kept, not run again.
    REQUIRE(spmma_cli("gemm --m 16 --n 16 --k 16 --dtype f16,s8 --json " + json + kCpu).code == 0);
    auto recs = records_of(json);
    REQUIRE(recs.size() == 2);
    recs[0]["status"] = "failed";
    recs[0]["reason"] = "3 of 256 checked elements wrong";
    write_file("resumed.jsonl", recs[0].dump() + "\n");
    const auto r = spmma_cli("gemm --m 16 --n 16 --k 16 --dtype f16,s8 --resume --json " + json + " --junit " + junit + " --csv " + csv +
                             " --plugin cpu --no-progress");
    INFO(r.out);
    CHECK(r.code == 1);
    CHECK_THAT(r.out, Catch::Contains("1 verified, 1 failed"));
    CHECK_THAT(read_file(junit), Catch::Contains("tests=\"2\" failures=\"1\""));
    const std::string table = read_file(csv);
    CHECK(std::count(table.begin(), table.end(), '\n') == 3);
    CHECK_THAT(table, Catch::StartsWith("status,") && Catch::Contains("\nfailed,16,16,16"));
    CHECK(records_of(json).size() == 2);
}

TEST_CASE("merge refuses a jobs count that is not a whole number instead of growing without bound", "[cli][outputs]") {
    const std::string json = temp_path("jobs.jsonl");
    REQUIRE(spmma_cli("gemm --m 16 --n 16 --k 16 --json " + json + kCpu).code == 0);
    auto rec = records_of(json).at(0);
    rec["sweep"]["jobs"] = 1e9;
    const std::string bad = write_file("jobs_float.jsonl", rec.dump() + "\n");
    const auto r = spmma_cli("merge " + bad + " -o " + temp_path("jobs_out.jsonl"));
    INFO(r.out);
    CHECK(r.code == 2);
    CHECK_THAT(r.out, Catch::Contains("jobs_float.jsonl:1: not a record of a sweep (sweep.jobs: expected a whole number"));
    rec["sweep"]["jobs"] = 1000000000;
    const std::string many = write_file("jobs_many.jsonl", rec.dump() + "\n");
    const auto m = spmma_cli("merge " + many + " -o " + temp_path("jobs_many_out.jsonl"));
    INFO(m.out);
    CHECK(m.code == 1);
    CHECK_THAT(m.out, Catch::Contains("job 1000 (?): no records") && Catch::Contains("jobs 1001 to 999999999 (999998999 jobs): no records"));
}

TEST_CASE("a number like 1e400 in a record file is an error naming file and line", "[cli][outputs]") {
    const std::string json = temp_path("huge_number.jsonl");
    REQUIRE(spmma_cli("gemm --m 16 --n 16 --k 16 --json " + json + kCpu).code == 0);
    std::string text = read_file(json);
    text.replace(text.find("\"m\":16"), 6, "\"m\":1e400");
    const std::string bad = write_file("huge_number_bad.jsonl", text);
    const auto r = spmma_cli("report " + bad + " -o " + temp_path("huge.html"));
    INFO(r.out);
    CHECK(r.code == 2);
    CHECK_THAT(r.out, Catch::Contains("huge_number_bad.jsonl:1: not JSON"));
}
