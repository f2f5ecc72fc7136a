// run_on_devices: the slots whose plugins its runners open.
#include <catch2/catch.hpp>

#include <spmma/core/runner.hpp>

#include <atomic>
#include <stdexcept>
#include <vector>

using namespace spmma;

namespace {

// A plugin endpoint that runs nothing and counts the close_requests it is sent.
class ClosingEndpoint final : public PluginEndpoint {
public:
    explicit ClosingEndpoint(std::atomic<int>& closed) : closed_(closed) {}
    const PluginIdentity& identity() const override { return id_; }
    int device_count() override { return 1; }
    DeviceInfo probe(int) override { return {}; }
    std::optional<std::string> unsupported_reason(int, const spmma_problem&, const char*) override { return "runs nothing"; }
    ExecResult execute(const ExecRequest&, const Exchange&, double) override { throw std::logic_error("no job was given"); }
    void prepare(const std::vector<Arena*>&, const std::string&) override {}
    const char* isolation() const override { return "worker"; }
    void close_requests() override { ++closed_; }

private:
    PluginIdentity id_;
    std::atomic<int>& closed_;
};

}  // namespace

TEST_CASE("run_on_devices opens a slot's plugins in its runner once, and a slot that cannot open them counts an error", "[run]") {
    int opened = 0;
    std::vector<DeviceSlot> slots(3);
    for (int d = 0; d < 3; ++d) slots[d].device = d;
    slots[1].open = [&] {
        ++opened;
        return std::vector<std::unique_ptr<PluginEndpoint>>{};
    };
    slots[2].open = []() -> std::vector<std::unique_ptr<PluginEndpoint>> { throw std::runtime_error("no worker executable"); };
    const RunSummary s = run_on_devices({}, slots, RunnerOptions{}, {});
    CHECK(opened == 1);
    CHECK(s.errors == 1);
    CHECK(s.exit_code() == 1);
}

TEST_CASE("run_on_devices closes each device's workers once its runner has no job left", "[run]") {
    std::atomic<int> closed{0};
    std::vector<DeviceSlot> slots(2);
    for (int d = 0; d < 2; ++d) {
        slots[d].device = d;
        for (int k = 0; k < 2; ++k) slots[d].plugins.push_back(std::make_unique<ClosingEndpoint>(closed));
    }
    const RunSummary s = run_on_devices({}, slots, RunnerOptions{}, {});
    CHECK(s.errors == 0);
    CHECK(closed == 4);
}
