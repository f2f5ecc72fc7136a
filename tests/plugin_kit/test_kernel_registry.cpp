// The kernel registry: the plugin's entries in its order, the same kernels as the ABI lists
// them (strings pointing into the entries), lookup by exact name, one registry per plugin.
#include <spmma_plugin/kernel_registry.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace {

struct Entry {
    std::string name;
    const char* description;
    int tile;
};

int builds = 0;

std::vector<Entry> build() {
    ++builds;
    return {{"k_128", "a 128 tile", 128}, {"k_64", "a 64 tile", 64}};
}

}  // namespace

TEST_CASE("kernel registry lists entries in order, as ABI infos too, and finds exact names", "[plugin_kit]") {
    const auto& r = spmma_plugin::kernel_registry<Entry, build>();
    REQUIRE(r.entries().size() == 2);
    REQUIRE(r.infos().size() == 2);
    CHECK(r.entries()[1].tile == 64);
    CHECK(std::string(r.infos()[0].name) == "k_128");
    CHECK(std::string(r.infos()[1].description) == "a 64 tile");
    CHECK(r.infos()[0].struct_size == sizeof(spmma_kernel_info));
    CHECK(r.infos()[0].name == r.entries()[0].name.c_str());  // no copies: the entries own the strings
    CHECK(r.find("k_64") == &r.entries()[1]);
    CHECK(r.find("k_6") == nullptr);
    CHECK(r.find(nullptr) == nullptr);
    CHECK(&spmma_plugin::kernel_registry<Entry, build>() == &r);
    CHECK(builds == 1);
}
