// bench/results/make_results.py, run with python3 on the hand-made records of sample/ (and on the
// kept standard-set records, which must reproduce bench/RESULTS.md): the table it writes, what it
// leaves out, and the errors it gives on bad input.
#include <catch2/catch.hpp>

#include "run_script.hpp"

#include <filesystem>
#include <fstream>
#include <string>

namespace {

using namespace bench_test;

const fs::path kSample = kSource / "tests" / "bench" / "sample";

Run make_results(const std::string& args, const fs::path& dir) {
    return run_script("bench/results/make_results.py", args, dir);
}

const std::string kSampleArgs =
    "tests/bench/sample/records.jsonl --shapes tests/bench/sample/shapes.toml --command 'sample command'";

// The tables only (from the first plugin's heading on).
std::string tables(const std::string& text) {
    const auto at = text.find("\n## ");
    return at == std::string::npos ? std::string() : text.substr(at);
}

}  // namespace

TEST_CASE("make_results.py: a plugin's figure is its fastest verified record, never a faster failed one") {
    const auto dir = scratch("make_results_best");
    const Run r = make_results(kSampleArgs + " --peers tests/bench/sample/peers.json", dir);
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(has_line(r.out, "| 4096x4096x4096 | f16 | 1100 | `sm90a_f16f16_f32_256x192x64_c2x1_s5` | "
                          "cuSPARSELt plugin | 1050 | 1.05 |"));
    CHECK(r.out.find("1300") == std::string::npos);
}

TEST_CASE("make_results.py: the best peer is the fastest of the other peer plugins and PyTorch's columns, ratio to it") {
    const auto dir = scratch("make_results_peers");
    const Run r = make_results(kSampleArgs + " --peers tests/bench/sample/peers.json", dir);
    REQUIRE(r.status == 0);
    // PyTorch dense beats the cuSPARSELt plugin at this cell.
    CHECK(has_line(r.out, "| 8192x8192x8192 | bf16 | 1213 | `sm90a_bf16bf16_f32_128x256x64_c2x1_s5` | "
                          "PyTorch dense | 1250 | 0.97 |"));
    // A peer plugin's own section compares it with the other peer plugin, never with itself.
    CHECK(has_line(r.out, "| 4096x4096x4096 | f16 | 1050 | `cusparselt_f16f16_f32acc_alg25` | "
                          "cuBLAS plugin | 780 | 1.35 |"));
    CHECK(has_line(r.out, "Faster than the best peer at 1 of 2 cells."));
    // spmma's plugins come before the peers' sections.
    CHECK(r.out.find("\n## sm90a (sparse)") < r.out.find("\n## cusparselt (sparse)"));
}

TEST_CASE("make_results.py: a cell whose records did not verify shows their status, a cell without records says so") {
    const auto dir = scratch("make_results_status");
    const Run r = make_results(kSampleArgs, dir);
    REQUIRE(r.status == 0);
    CHECK(has_line(r.out, "| 8192x8192x8192 | s8 | error | (none verified) | - | - | - |"));
    CHECK(has_line(r.out, "| 8192x8192x8192 | f16 | - | (no record) | - | - | - |"));
}

TEST_CASE("make_results.py: the header states date, device, plugin versions, command and how many records fall outside the standard set") {
    const auto dir = scratch("make_results_header");
    const Run r = make_results(kSampleArgs, dir);
    REQUIRE(r.status == 0);
    CHECK(has_line(r.out, "- Date: 2026-11-23 (18:01 to 18:03 UTC)"));
    CHECK(has_line(r.out, "- Device: NVIDIA H200 (sm_90, driver 13.0)"));
    // The vendor plugin's version names the library it ran (here cuSPARSELt 0.8.0).
    CHECK(has_line(r.out, "- Plugins: cublas 0.1.0, cusparselt 0.1.0+cusparseLt.0.8.0, sm90a 0.1.0"));
    CHECK(has_line(r.out, "- Command: `sample command`"));
    // --dist int, a 1000^3 problem and f16 accumulation are outside; a field it does not know is not an error.
    CHECK(has_line(r.out, "  11 records, 8 in the standard set, 3 outside it (not tabulated)"));
}

TEST_CASE("make_results.py: peers.py's printed table gives the same tables as its peers.json") {
    const auto dir_json = scratch("make_results_peers_json");
    const auto dir_text = scratch("make_results_peers_text");
    const Run j = make_results(kSampleArgs + " --peers tests/bench/sample/peers.json", dir_json);
    const Run t = make_results(kSampleArgs + " --peers tests/bench/sample/peers.txt", dir_text);
    REQUIRE(j.status == 0);
    REQUIRE(t.status == 0);
    REQUIRE_FALSE(tables(j.out).empty());
    CHECK(tables(j.out) == tables(t.out));
    CHECK(has_line(t.out, "  its printed table, whole TFLOP/s"));
}

TEST_CASE("make_results.py: bad input exits 2 naming the file, line and key") {
    const auto dir = scratch("make_results_bad");
    {
        std::ofstream f(dir / "bad.jsonl");
        f << slurp(kSample / "records.jsonl").substr(0, slurp(kSample / "records.jsonl").find('\n') + 1)
          << "{\"status\": \"verified\", \"problem\": {\"m\": 1\n";
    }
    Run r = make_results((dir / "bad.jsonl").string() + " --shapes tests/bench/sample/shapes.toml", dir);
    CHECK(r.status == 2);
    CHECK(r.err.find("bad.jsonl:2: not a JSON record") != std::string::npos);

    {
        std::ofstream f(dir / "nokey.jsonl");
        f << "{\"status\": \"verified\", \"plugin\": {\"name\": \"sm90a\"}, \"problem\": {\"n\": 1, \"k\": 1, "
             "\"a_type\": \"f16\"}}\n";
    }
    r = make_results((dir / "nokey.jsonl").string() + " --shapes tests/bench/sample/shapes.toml", dir);
    CHECK(r.status == 2);
    CHECK(r.err.find("nokey.jsonl:1: key problem.m is missing") != std::string::npos);

    {
        std::ofstream f(dir / "peers.txt");
        f << "no table here\n";
    }
    r = make_results(kSampleArgs + " --peers " + (dir / "peers.txt").string(), dir);
    CHECK(r.status == 2);
    CHECK(r.err.find("peers.txt: no peer rows") != std::string::npos);

    {
        std::ofstream f(dir / "shapes.toml");
        f << "version = 1\n[[sweep]]\nm = \"1024:4096:*2\"\nn = 1\nk = 1\ndtype = \"f16\"\n";
    }
    r = make_results(std::string("tests/bench/sample/records.jsonl --shapes ") + (dir / "shapes.toml").string(), dir);
    CHECK(r.status == 2);
    CHECK(r.err.find("shapes.toml: [[sweep]] 1: m: expected int") != std::string::npos);
}

TEST_CASE("make_results.py: the kept standard-set records reproduce bench/RESULTS.md as checked in") {
    const auto dir = scratch("make_results_results_md");
    // The folder bench/results/README.md names as RESULTS.md's source.
    const std::string readme = slurp(kSource / "bench" / "results" / "README.md");
    const std::string lead = "bench/RESULTS.md is generated from `";
    const size_t at = readme.find(lead);
    REQUIRE(at != std::string::npos);
    const size_t end = readme.find('`', at + lead.size());
    REQUIRE(end != std::string::npos);
    const std::string kept = "bench/results/" + readme.substr(at + lead.size(), end - at - lead.size());
    INFO(kept);
    REQUIRE(fs::is_directory(kSource / kept));
    // And the folders its decode sections come from (one per card, in the README's order), where
    // the README names them: every `...` between "and its decode sections" and "by"; then another
    // plugin's section, "its <plugin> decode section from `...`".
    std::string decode;
    if (const size_t dat = readme.find("and its decode sections", end); dat != std::string::npos) {
        const size_t by = readme.find(", by `make_results.py`", dat);
        REQUIRE(by != std::string::npos);
        for (size_t q = readme.find('`', dat); q < by; q = readme.find('`', q + 1)) {
            const size_t qend = readme.find('`', q + 1);
            REQUIRE(qend < by);
            decode += " --decode bench/results/" + readme.substr(q + 1, qend - q - 1) + "set.jsonl.gz";
            q = qend;
        }
        REQUIRE(!decode.empty());
        const std::string from = " decode section from `";
        if (const size_t as = readme.find(from, by); as != std::string::npos && as < readme.find("\n\n", by)) {
            const size_t word = readme.find_last_of(" \n", as - 1) + 1;
            const size_t qend = readme.find('`', as + from.size());
            decode += " --decode-as " + readme.substr(word, as - word) + " bench/results/" +
                      readme.substr(as + from.size(), qend - as - from.size()) + "set.jsonl.gz";
        }
    }
    const Run r = make_results(kept + "worker.jsonl --peers " + kept + "peers.json --command "
                               "'REPEAT=2 bench/sweep/standard.sh; STAGES=peers bench/baselines/device.sh'" + decode,
                               dir);
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(r.out == slurp(kSource / "bench" / "RESULTS.md"));
}

TEST_CASE("make_results.py --decode: one section per card, the subject against the peers of that card, ratios and % SOL") {
    const auto dir = scratch("make_results_decode");
    const Run r = make_results("--decode tests/bench/sample/decode.jsonl --decode-shapes tests/bench/sample/decode-shapes.toml", dir);
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(r.out.find("## Decode: NVIDIA H100 80GB HBM3") < r.out.find("## Decode: NVIDIA H200"));
    CHECK(has_line(r.out, "- Peaks (the device's, as its plugin states them): 132 SMs at 1980 MHz; memory 2619 MHz on 5120 bits = 3.35 TB/s"));
    // The fastest verified sm90a record (not the faster failed one), the best peer, its ratio and dense cuBLAS's.
    CHECK(has_line(r.out, "| toy qkv | 6144x4096 | 1 | f16 | 20.0 | 2.5 | 60.0 | cuSPARSELt | 16.0 | 75.0 | 0.80 | 1.50 |"));
    CHECK(has_line(r.out, "| toy qkv | 6144x4096 | 16 | f16 | 18.0 | 44.7 | 65.0 | cuSPARSELt | 19.0 | 62.0 | 1.06 | 1.56 |"));
    // A cell where the subject did not verify shows its status and no ratio.
    CHECK(has_line(r.out, "| toy qkv | 6144x4096 | 1 | e4m3 | error | - | - | cuSPARSELt | 12.0 | 55.0 | - | - |"));
    CHECK(has_line(r.out, "sm90a faster than the best peer at 1 of 2 cells, at least 1.05x at 1."));
    // The H200's records carry no peaks: % SOL unknown; its cuBLAS is compared only with its own sm90a.
    CHECK(has_line(r.out, "- Peaks: not in the records (% SOL unknown)"));
    CHECK(has_line(r.out, "| toy down | 4096x14336 | 1 | f16 | 15.0 | 7.8 | - | cuBLAS | 25.0 | - | 1.67 | 1.67 |"));
    // A problem outside the workload's layers is not tabulated.
    CHECK(r.out.find("1000x") == std::string::npos);
}

TEST_CASE("make_results.py: a % SOL column where a section's records carry sol, none where they do not") {
    const auto dir = scratch("make_results_sol");
    // The standard-set sample carries no sol: no column (bench/RESULTS.md's kept records neither).
    Run r = make_results(kSampleArgs, dir);
    REQUIRE(r.status == 0);
    CHECK(r.out.find("% SOL") == std::string::npos);
    {
        std::ofstream f(dir / "with_sol.jsonl");
        std::ifstream in(kSample / "records.jsonl");
        std::string line;
        bool first = true;
        while (std::getline(in, line)) {
            // The first record (cusparselt, 4096^3 f16) at 71.5 % of its bound.
            if (first) line.insert(line.rfind('}'), ", \"sol\": {\"fraction\": 0.715}");
            first = false;
            f << line << "\n";
        }
    }
    r = make_results((dir / "with_sol.jsonl").string() + " --shapes tests/bench/sample/shapes.toml", dir);
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(has_line(r.out, "| 4096x4096x4096 | f16 | 1050 | 71.5 | `cusparselt_f16f16_f32acc_alg25` | cuBLAS plugin | 780 | 1.35 |"));
    CHECK(has_line(r.out, "| shape | type | TFLOP/s | % SOL | kernel | best peer | peer TFLOP/s | ratio |"));
    // A cell without sol in a section with the column: "-".
    CHECK(has_line(r.out, "| 8192x8192x8192 | bf16 | 1107 | - | `cusparselt_bf16bf16_f32acc_alg20` | - | - | - |"));
    // The sm90a section's records carry no sol: no column there.
    CHECK(has_line(r.out, "| shape | type | TFLOP/s | kernel | best peer | peer TFLOP/s | ratio |"));
}

TEST_CASE("make_results.py --decode-as: another plugin's decode records in a section of their own, against the peers") {
    const auto dir = scratch("make_results_decode_as");
    const Run r = make_results("--decode tests/bench/sample/decode.jsonl --decode-as cusparselt tests/bench/sample/decode.jsonl "
                               "--decode-shapes tests/bench/sample/decode-shapes.toml",
                               dir);
    INFO(r.err);
    REQUIRE(r.status == 0);
    // sm90a's section first, then the other subject's, titled with it.
    CHECK(r.out.find("## Decode: NVIDIA H100 80GB HBM3") < r.out.find("# Decode on cusparselt: a weight times 1 to 128 tokens"));
    CHECK(has_line(r.out, "## Decode on cusparselt: NVIDIA H100 80GB HBM3"));
    CHECK(has_line(r.out, "Ratio: the best peer's time / cusparselt's (above 1: cusparselt faster); vs dense cuBLAS: the cublas"));
    // cuSPARSELt's 6144x4096 f16 cell at one token against cuBLAS, its only peer there.
    CHECK(r.out.find("| toy qkv | 6144x4096 | 1 | f16 | 16.0 | ") != std::string::npos);
    CHECK(r.out.find("cusparselt faster than the best peer at") != std::string::npos);
}

TEST_CASE("make_results.py --decode: a workload file that is not one exits 2 naming it") {
    const auto dir = scratch("make_results_decode_bad");
    {
        std::ofstream f(dir / "decode.toml");
        f << "version = 1\n[[sweep]]\nname = \"x\"\nm = \"big\"\nk = 1\nn = 1\ndtype = \"f16\"\n";
    }
    const Run r = make_results("--decode tests/bench/sample/decode.jsonl --decode-shapes " + (dir / "decode.toml").string(), dir);
    CHECK(r.status == 2);
    CHECK(r.err.find("decode.toml: x: m: expected int") != std::string::npos);
    CHECK(make_results("", dir).status == 2);
}

namespace {
// The sample decode records in a folder of their own, with `dram` as its dram.txt.
fs::path decode_beside_dram(const std::string& name, const std::string& dram) {
    const auto dir = scratch(name);
    fs::create_directories(dir / "set");
    fs::copy_file(kSample / "decode.jsonl", dir / "set" / "decode.jsonl");
    std::ofstream(dir / "set" / "dram.txt") << dram;
    return dir;
}
}  // namespace

TEST_CASE("make_results.py --decode: beside dram.txt a card's cells under 1.05x with % SOL, clock, the read ceiling and what bounds each") {
    // Two repetitions of spmma-bench-dram on the sample's H100: the median fit is 16 us + bytes / 3 TB/s.
    const auto dir = decode_beside_dram("make_results_decode_ceiling",
                                        "NVIDIA H100 80GB HBM3: 132 SMs, SM clock 1980 MHz, memory 2619 MHz x 5120 bits\n"
                                        "fit over 64-512 MiB (loads): time = 15.00 us + bytes / 2.000 TB/s (60 % of the peak)\n"
                                        "NVIDIA H100 80GB HBM3: 132 SMs, SM clock 1980 MHz, memory 2619 MHz x 5120 bits\n"
                                        "fit over 64-512 MiB (loads): time = 17.00 us + bytes / 4.000 TB/s (120 % of the peak)\n");
    const Run r = make_results("--decode " + quoted(dir / "set" / "decode.jsonl") + " --decode-shapes tests/bench/sample/decode-shapes.toml", dir);
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(r.out.find("### Decode: NVIDIA H100 80GB HBM3, the cells under 1.05x and what bounds them") != std::string::npos);
    CHECK(r.out.find("Read ceiling: 16.00 µs + bytes / 3.00 TB/s") != std::string::npos);
    // The one H100 cell under 1.05x (sm90a 20 us, cuSPARSELt 16): its record's bytes (1) take the
    // ceiling's 16 us, the roofline bound 12 us is 75 % of that, sm90a 1.25x it, and 1.05x would
    // need 16 / 1.05 / 16 = 0.95 of it: under the ceiling, so DRAM bounds it. No clock in the records.
    CHECK(has_line(r.out, "| toy qkv | 6144x4096 | 1 | f16 | 0.800 | 60.0 | - | 16.0 | 75.0 | 1.25 | 0.95 | DRAM |"));
    CHECK(has_line(r.out, "Bound by DRAM: 1 of the 1 cells under 1.05x."));
    // The H200's section has no such table: dram.txt is the H100's.
    CHECK(r.out.find("### Decode: NVIDIA H200") == std::string::npos);
}

TEST_CASE("make_results.py --decode: a dram.txt without a fit or of two devices exits 2 naming it") {
    for (const std::string dram : {std::string("NVIDIA H100 80GB HBM3: 132 SMs, SM clock 1980 MHz\nno fit here\n"),
                                   std::string("A: 1 SMs, SM clock 1 MHz\nB: 1 SMs, SM clock 1 MHz\n"
                                               "fit over 64-512 MiB (loads): time = 5.00 us + bytes / 4.000 TB/s\n")}) {
        const auto dir = decode_beside_dram("make_results_decode_ceiling_bad", dram);
        const Run r = make_results("--decode " + quoted(dir / "set" / "decode.jsonl") + " --decode-shapes tests/bench/sample/decode-shapes.toml", dir);
        CHECK(r.status == 2);
        CHECK(r.err.find("set/dram.txt: expected spmma-bench-dram's output of one device") != std::string::npos);
    }
}
