#include <spmma/core/gemm_spec.hpp>
#include <spmma/core/problem_keys.hpp>
#include <spmma/core/workload.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>

using namespace spmma;

namespace {

std::string gemm_error(GemmSpec spec) {
    try {
        jobs_from_spec(spec);
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    FAIL("no error");
    return "";
}

std::string workload_error(const std::string& body) {
    try {
        parse_workload("version = 1\n[[problem]]\nm = 64\nn = 64\nk = 64\n" + body, "w.toml");
    } catch (const WorkloadError& e) {
        return e.what();
    }
    FAIL("no error for " << body);
    return "";
}

GemmSpec sizes_and(std::map<std::string, std::vector<std::string>> more) {
    GemmSpec s;
    s.given = {{"m", {"64"}}, {"n", {"64"}}, {"k", {"64"}}};
    for (auto& [k, v] : more) s.given[k] = v;
    return s;
}

}  // namespace

TEST_CASE("every key has its own name, flag and sweep rank", "[keys]") {
    std::set<std::string> names, flags;
    std::set<int> ranks;
    for (const ProblemKey& k : problem_keys()) {
        CHECK(names.insert(k.name).second);
        CHECK(flags.insert(k.flag).second);
        CHECK(ranks.insert(k.sweep).second);
        CHECK(k.set != nullptr);
        CHECK((k.get != nullptr) == k.written);
        CHECK((k.abi_get != nullptr) == (k.abi_set != nullptr));
        CHECK(std::string(k.flag).rfind("--", 0) == 0);
    }
    CHECK(find_problem_key("satfinite") != nullptr);
    CHECK(find_problem_key("saturate") == nullptr);
    CHECK_THROWS_AS(problem_key("saturate"), std::logic_error);
}

TEST_CASE("the workload accepts exactly the keys of the table, besides name, plugins, kernels and the operand files a, b, c", "[keys][workload]") {
    std::vector<std::string> want = {"name"};
    for (const ProblemKey& k : problem_keys()) want.push_back(k.name);
    want.push_back("plugins");
    want.push_back("kernels");
    for (const char* operand : {"a", "b", "c"}) want.push_back(operand);
    CHECK(workload_keys() == want);
}

TEST_CASE("a key's text comes back from the job as it was given", "[keys]") {
    const std::vector<std::pair<const char*, const char*>> given = {
        {"a_type", "e4m3"}, {"acc", "f16"}, {"pattern", "4:8"}, {"dist", "normal"}, {"seed", "18446744073709551615"},
        {"alpha", "0.5"},   {"beta", "-2"}, {"warmup", "0"},    {"iterations", "7"}, {"verify", "sampled"}, {"satfinite", "1"}};
    for (const auto& [name, text] : given) {
        const ProblemKey& key = problem_key(name);
        auto parsed = parse_key_text(key, text);
        REQUIRE(std::holds_alternative<KeyValue>(parsed));
        JobDraft d;
        REQUIRE_FALSE(set_key(key, d, std::get<KeyValue>(parsed)));
        CHECK(key_text(*key.get(d.job)) == text);
    }
}

TEST_CASE("the command line and a workload refuse a bad value with the same words", "[keys][errors]") {
    const std::vector<std::tuple<const char*, const char*, const char*>> cases = {
        {"dist", "\"uniformly\"", "unknown distribution 'uniformly' (int, uniform, normal)"},
        {"verify", "\"most\"", "unknown mode 'most' (full, sampled, auto, none)"},
        {"pattern", "\"3:4\"", "unknown pattern '3:4' (2:4, 1:2, 4:8)"},
        {"scale_gen", "\"max\"", "unknown scale generation 'max' (random, amax)"},
        {"acc", "\"f31\"", "unknown type 'f31'"},
        {"iterations", "0", "must be 1 or more, not 0"},
    };
    for (const auto& [name, toml_value, words] : cases) {
        std::string text = toml_value;
        if (text.front() == '"') text = text.substr(1, text.size() - 2);
        const ProblemKey& key = problem_key(name);
        CHECK(gemm_error(sizes_and({{name, {text}}})) == std::string(key.flag) + ": " + words);
        CHECK(workload_error(std::string(name) + " = " + toml_value + "\n") == std::string("w.toml:6: ") + name + ": " + words);
    }
}

TEST_CASE("spmma gemm names the option of an impossible problem, --dtype for types it set", "[keys][errors]") {
    CHECK_THAT(gemm_error(sizes_and({{"dtype", {"f16"}}, {"b_type", {"bf16"}}})), Catch::StartsWith("--b-type: A and B must have the same type"));
    CHECK_THAT(gemm_error(sizes_and({{"dtype", {"s8"}}, {"acc", {"f32"}}})), Catch::StartsWith("--acc: integer types accumulate in s32"));
    CHECK_THAT(gemm_error(sizes_and({{"dtype", {"f16"}}, {"satfinite", {"true"}}})), Catch::StartsWith("--satfinite: saturation"));
    CHECK_THAT(gemm_error(sizes_and({{"dtype", {"f32"}}})), Catch::StartsWith("--dtype: f32 cannot be an A operand type"));
    GemmSpec no_k = sizes_and({});
    no_k.given.erase("k");
    CHECK(gemm_error(no_k) == "--k is required (or --a, whose tensor gives it)");
}

TEST_CASE("spmma gemm runs each --dtype in turn with the sizes inside, --a-type alone sets B too", "[keys]") {
    const auto jobs = jobs_from_spec(sizes_and({{"m", {"64,128"}}, {"dtype", {"f16", "bf16"}}}));
    REQUIRE(jobs.size() == 4);
    CHECK(jobs[0].problem.a == DType::F16);
    CHECK(jobs[0].problem.m == 64);
    CHECK(jobs[1].problem.a == DType::F16);
    CHECK(jobs[1].problem.m == 128);
    CHECK(jobs[2].problem.a == DType::BF16);
    const auto s8 = jobs_from_spec(sizes_and({{"a_type", {"s8"}}}));
    REQUIRE(s8.size() == 1);
    CHECK(s8[0].problem.b == DType::S8);
    CHECK(s8[0].source == "command line");
}

TEST_CASE("a workload sweep multiplies its lists in sweep rank, satfinite fastest", "[keys][workload]") {
    const auto jobs = parse_workload(
        "version = 1\n[[sweep]]\nm = 64\nn = 64\nk = 64\nsatfinite = [false, true]\nseed = [1, 2]\ndtype = [\"s8\", \"u8\"]\n", "w.toml");
    REQUIRE(jobs.size() == 8);
    CHECK(jobs[0].problem.a == DType::S8);
    CHECK(jobs[0].problem.seed == 1);
    CHECK_FALSE(jobs[0].problem.saturate);
    CHECK(jobs[1].problem.saturate);
    CHECK(jobs[1].problem.seed == 1);
    CHECK(jobs[2].problem.seed == 2);
    CHECK(jobs[4].problem.a == DType::U8);
}
