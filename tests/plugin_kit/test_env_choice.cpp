// spmma_plugin::env_choice and env_count: a plugin's tuning switch read from the environment.
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

TEST_CASE("env_count: unset or empty is no setting, a count from 1 to the most is its value, a listed word its index") {
    using spmma_plugin::env_count;
    unsetenv(kVar);
    CHECK(!env_count(kVar, 8).has_value());
    setenv(kVar, "", 1);
    CHECK(!env_count(kVar, 8).has_value());
    setenv(kVar, "8", 1);
    CHECK(env_count(kVar, 8)->count == 8);
    CHECK(env_count(kVar, 8)->word == -1);
    setenv(kVar, "balanced", 1);
    CHECK(env_count(kVar, 8, {"resident", "balanced"})->word == 1);
    CHECK(env_count(kVar, 8, {"resident", "balanced"})->count == 0);
    unsetenv(kVar);
}

TEST_CASE("env_count: zero, past the most, trailing text or an unlisted word is an invalid argument naming what it takes") {
    using spmma_plugin::env_count;
    for (const char* bad : {"0", "9", "3x", "-2", "99999999999999999999", "Balanced"}) {
        setenv(kVar, bad, 1);
        INFO(bad);
        try {
            (void)env_count(kVar, 8, {"resident", "balanced"});
            FAIL("no error");
        } catch (const spmma_plugin::Error& e) {
            CHECK(e.status() == SPMMA_INVALID_ARGUMENT);
            CHECK(std::string(e.what()) ==
                  std::string("SPMMA_TEST_KIT_SWITCH='") + bad + "': expected resident, balanced or a count from 1 to 8");
        }
    }
    setenv(kVar, "0", 1);
    try {
        (void)env_count(kVar, 1024);
        FAIL("no error");
    } catch (const spmma_plugin::Error& e) {
        CHECK(std::string(e.what()) == "SPMMA_TEST_KIT_SWITCH='0': expected a count from 1 to 1024");
    }
    unsetenv(kVar);
}
