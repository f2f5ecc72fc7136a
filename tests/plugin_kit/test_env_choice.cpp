// spmma_plugin::env_choice: a plugin's tuning switch read from the environment.
#include <catch2/catch.hpp>

#include <spmma_plugin/env_choice.hpp>

#include <cstdlib>
#include <string>

using spmma_plugin::env_choice;

namespace {
constexpr const char* kVar = "SPMMA_TEST_KIT_SWITCH";
}

TEST_CASE("env_choice: unset or empty is no choice, a listed word is its index") {
    unsetenv(kVar);
    CHECK(!env_choice(kVar, {"off", "on"}).has_value());
    setenv(kVar, "", 1);
    CHECK(!env_choice(kVar, {"off", "on"}).has_value());
    setenv(kVar, "on", 1);
    CHECK(env_choice(kVar, {"off", "on"}) == 1);
    setenv(kVar, "direct", 1);
    CHECK(env_choice(kVar, {"direct", "tma"}) == 0);
    unsetenv(kVar);
}

TEST_CASE("env_choice: a word outside the list is an invalid argument naming the variable, the value and the words") {
    setenv(kVar, "On", 1);
    try {
        (void)env_choice(kVar, {"off", "on"});
        FAIL("no error for a word outside the list");
    } catch (const spmma_plugin::Error& e) {
        CHECK(e.status() == SPMMA_INVALID_ARGUMENT);
        CHECK(std::string(e.what()) == "SPMMA_TEST_KIT_SWITCH='On': expected off or on");
    }
    unsetenv(kVar);
}
