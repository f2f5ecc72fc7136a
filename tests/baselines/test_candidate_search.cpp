// The timed search among a vendor library's configurations, driven by a fake timer: which
// candidate it keeps, how many launches it spends, and what it says about candidates that fail.
#include <spmma_baseline/candidate_search.hpp>

#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <stdexcept>
#include <utility>

using namespace spmma_baseline;

namespace {

// A fake GPU: candidate i's launches take screen_ms[i] the first time it is timed and
// final_ms[i] afterwards; the ones in `broken` throw. Every call is logged.
struct FakeGpu {
    FakeGpu(std::vector<double> screen, std::vector<double> final, std::set<size_t> broken_ones = {})
        : screen_ms(std::move(screen)), final_ms(std::move(final)), broken(std::move(broken_ones)) {}
    std::vector<double> screen_ms, final_ms;
    std::set<size_t> broken;
    struct Call {
        size_t index;
        int warmup, launches;
    };
    std::vector<Call> calls;
    std::map<size_t, int> seen;

    TimeCandidate timer() {
        return [this](size_t i, int warmup, int launches) {
            calls.push_back({i, warmup, launches});
            if (broken.count(i)) throw std::runtime_error("CUSPARSE_STATUS_NOT_SUPPORTED");
            const double t = seen[i]++ == 0 ? screen_ms.at(i) : final_ms.at(i);
            return std::vector<float>(static_cast<size_t>(launches), static_cast<float>(t));
        };
    }
};

std::string name(size_t i) {
    std::string s = "c";
    s += std::to_string(i);
    return s;
}

std::vector<size_t> all(size_t n) {
    std::vector<size_t> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = i;
    return v;
}

}  // namespace

TEST_CASE("the search keeps the best median of the re-timing, not of the short screen", "[baselines][search]") {
    FakeGpu gpu({1.0, 0.90, 0.95}, {1.0, 1.20, 0.97});
    CandidateSearch s(gpu.timer(), name);
    s.screen(all(3));
    CHECK(s.ranked() == std::vector<size_t>{1, 2, 0});
    const SearchOutcome o = s.finish();
    CHECK(o.best == 2);
    CHECK(o.best_ms == Approx(0.97));
    REQUIRE(o.runner_up);
    CHECK(*o.runner_up == 0);
    CHECK(o.runner_up_ms == Approx(1.0));
    CHECK(o.tried == 3);
    CHECK(o.failed == 0);
}

TEST_CASE("candidates that fail are skipped and counted, with the first few messages", "[baselines][search]") {
    FakeGpu gpu({1.0, 0.5, 2.0, 0.4, 0.3, 0.2, 0.1}, {1.0, 0.5, 2.0, 0.4, 0.3, 0.2, 0.1}, {1, 3, 4, 5, 6, 0});
    CandidateSearch s(gpu.timer(), name);
    s.screen(all(7));
    const SearchOutcome o = s.finish();
    CHECK(o.best == 2);  // the only one that runs
    CHECK_FALSE(o.runner_up);
    CHECK(o.tried == 7);
    CHECK(o.failed == 6);
    REQUIRE(o.failures.size() == 5);  // the count is complete, the messages stop at five
    CHECK(o.failures[0] == "c0: CUSPARSE_STATUS_NOT_SUPPORTED");
    CHECK(o.failures[1] == "c1: CUSPARSE_STATUS_NOT_SUPPORTED");
}

TEST_CASE("a search where nothing runs is an error that names the failures", "[baselines][search]") {
    FakeGpu gpu({1, 1}, {1, 1}, {0, 1});
    CandidateSearch s(gpu.timer(), name);
    s.screen(all(2));
    CHECK_THROWS_WITH(s.finish(), "2 candidates tried, none ran: c0: CUSPARSE_STATUS_NOT_SUPPORTED; c1: CUSPARSE_STATUS_NOT_SUPPORTED");
}

TEST_CASE("launch counts follow the first candidate's time: about 10 ms per screen, 100 ms per finalist", "[baselines][search]") {
    const SearchBudget b;
    CHECK(CandidateSearch::screen_launches(b, 0.1) == 20);  // ceil(10 / 0.1) = 100, at most 20
    CHECK(CandidateSearch::screen_launches(b, 1.0) == 10);
    CHECK(CandidateSearch::screen_launches(b, 8.0) == 3);  // ceil(1.25) = 2, at least 3
    CHECK(CandidateSearch::final_launches(b, 0.1) == 60);
    CHECK(CandidateSearch::final_launches(b, 1.0) == 60);
    CHECK(CandidateSearch::final_launches(b, 4.0) == 25);
    CHECK(CandidateSearch::final_launches(b, 8.0) == 13);

    // The first candidate is the probe (3 launches); the rest get the count its median sets.
    FakeGpu gpu({0.5, 0.6, 0.7}, {0.5, 0.6, 0.7});
    CandidateSearch s(gpu.timer(), name);
    s.screen(all(3));
    REQUIRE(gpu.calls.size() == 3);
    CHECK(gpu.calls[0].launches == 3);
    CHECK(gpu.calls[1].launches == 20);
    CHECK(gpu.calls[2].launches == 20);
    for (const auto& c : gpu.calls) CHECK(c.warmup == 1);
    const SearchOutcome o = s.finish();
    // finish: 3 finalists x 2 passes x (1 warm-up + 30): 60 timed launches each in all.
    CHECK(o.launches == (1 + 3) + 2 * (1 + 20) + 3 * 2 * (1 + 30));
}

TEST_CASE("the finalists are the best three and any other within 3 % of the best, at most five", "[baselines][search]") {
    const std::vector<double> ms = {1.000, 1.010, 1.020, 1.025, 1.500, 1.028, 1.029, 1.031};
    FakeGpu gpu(ms, ms);
    CandidateSearch s(gpu.timer(), name);
    s.screen(all(ms.size()));
    const size_t screened = gpu.calls.size();
    s.finish();
    std::vector<size_t> order;
    for (size_t i = screened; i < gpu.calls.size(); ++i) order.push_back(gpu.calls[i].index);
    // Two interleaved passes over the same finalists, fastest first.
    CHECK(order == std::vector<size_t>{0, 1, 2, 3, 5, 0, 1, 2, 3, 5});
}

TEST_CASE("a finalist that fails when re-timed is dropped and counted", "[baselines][search]") {
    FakeGpu gpu({1.0, 1.1}, {1.0, 1.1});
    CandidateSearch s(gpu.timer(), name);
    s.screen(all(2));
    gpu.broken = {0};
    const SearchOutcome o = s.finish();
    CHECK(o.best == 1);
    CHECK_FALSE(o.runner_up);
    CHECK(o.failed == 1);
}

TEST_CASE("a search's outcome reads as JSON with the candidates' names", "[baselines][search]") {
    FakeGpu gpu({2.0, 1.0}, {2.0, 1.0});
    CandidateSearch s(gpu.timer(), name);
    s.screen(all(2));
    const nlohmann::json j = s.finish().to_json(name);
    CHECK(j["pick"] == "c1");
    CHECK(j["best_ms"] == Approx(1.0));
    CHECK(j["runner_up"] == "c0");
    CHECK(j["runner_up_ms"] == Approx(2.0));
    CHECK(j["tried"] == 2);
    CHECK(j["failed"] == 0);
    CHECK_FALSE(j.contains("failures"));
    CHECK(j["ms"].get<double>() >= 0);
}

TEST_CASE("the median of launch times", "[baselines][search]") {
    CHECK(median_ms({}) == 0);
    CHECK(median_ms({3, 1, 2}) == 2);
    CHECK(median_ms({4, 1, 3, 2}) == Approx(2.5));
}
