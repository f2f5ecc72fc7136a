// run_on_devices: the slots whose plugins its runners open.
#include <catch2/catch.hpp>

#include <spmma/core/runner.hpp>

#include <stdexcept>
#include <vector>

using namespace spmma;

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
