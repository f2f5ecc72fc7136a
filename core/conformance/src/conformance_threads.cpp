// Check "last-error-threads": last_error is the calling thread's message. Two threads each make a
// different failing call, the second after the first, and each then reads back its own message.
#include <spmma/core/conformance_checks.hpp>

#include <fmt/format.h>

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace spmma::conformance::detail {
namespace {

struct FailingCall {
    std::string name;
    std::function<spmma_status()> call;
};

std::vector<FailingCall> candidates(const CheckContext& c) {
    const spmma_plugin_api& a = c.api();
    const int dev = c.device();
    std::vector<FailingCall> out = {
        {"get_kernel(-1)", [&a] { spmma_kernel_info k{}; k.struct_size = sizeof k; return a.get_kernel(-1, &k); }},
        {"probe(0, NULL)", [&a] { return a.probe(0, nullptr); }},
        {"supports(problem NULL)", [&a, dev] { char r[64]; return a.supports(dev, nullptr, nullptr, r, sizeof r); }},
        {"create(problem NULL)", [&a, dev] { spmma_handle* h = nullptr; return a.create(dev, nullptr, nullptr, &h); }},
        {"upload(NULL handle)", [&a] { spmma_operands o{}; o.struct_size = sizeof o; return a.upload(nullptr, &o); }},
        {"run(NULL handle)", [&a] { spmma_run_config r{}; r.struct_size = sizeof r; return a.run(nullptr, &r); }},
        {"download(NULL handle)", [&a] { char d[8]; return a.download(nullptr, d, sizeof d); }},
        {"handle_kernel(NULL handle)", [&a] { char n[64]; return a.handle_kernel(nullptr, n, sizeof n); }},
        {"supports(device -1)", [&a] {
             spmma_problem p = catalog().front().problem.to_abi();
             p.m = p.n = p.k = 64;
             char r[64];
             return a.supports(-1, &p, nullptr, r, sizeof r);
         }},
    };
    return out;
}

// Makes the call on this thread; its message, or nullopt when it did not fail.
std::optional<std::string> fail_and_read(const CheckContext& c, const FailingCall& f) {
    if (f.call() == SPMMA_OK) return std::nullopt;
    return c.last_error();
}

}  // namespace

CheckResult check_last_error_threads(const CheckContext& c) {
    c.enter("failing calls, one at a time (looking for two different messages)");
    const auto calls = candidates(c);
    std::vector<std::pair<const FailingCall*, std::string>> found;
    for (const auto& call : calls) {
        const auto msg = fail_and_read(c, call);
        if (!msg || msg->empty()) continue;
        if (found.empty() || found.front().second != *msg) found.emplace_back(&call, *msg);
        if (found.size() == 2) break;
    }
    if (found.size() < 2)
        return skip("last-error-threads", found.empty() ? "no failing call leaves a message"
                                                        : fmt::format("every failing call leaves the same message: \"{}\"", found.front().second));

    // NOTES: the order is forced: thread 1 fails, thread 2 fails, then both read. A plugin with one
    // message for the process makes thread 1 read thread 2's message.
    std::mutex m;
    std::condition_variable cv;
    int step = 0;
    std::string read[2];
    const auto wait_for = [&](int s) {
        std::unique_lock lock(m);
        cv.wait(lock, [&] { return step >= s; });
    };
    const auto advance = [&] {
        {
            std::lock_guard lock(m);
            ++step;
        }
        cv.notify_all();
    };
    c.enter(fmt::format("last_error on two threads ({} and {})", found[0].first->name, found[1].first->name));
    std::thread t1([&] {
        found[0].first->call();
        advance();  // step 1
        wait_for(2);
        read[0] = c.last_error();
        advance();
    });
    std::thread t2([&] {
        wait_for(1);
        found[1].first->call();
        read[1] = c.last_error();
        advance();  // step 2
    });
    t1.join();
    t2.join();
    Findings f;
    for (int i = 0; i < 2; ++i)
        if (read[i] != found[i].second)
            f.fail(fmt::format("the thread that made {} read \"{}\" from last_error after {} failed on the other, not its own \"{}\"",
                               found[i].first->name, read[i], found[1 - i].first->name, found[i].second));
    if (!f.failed())
        f.note(fmt::format("\"{}\" ({}) and \"{}\" ({}) each read back on their own thread", found[0].second, found[0].first->name,
                           found[1].second, found[1].first->name));
    return f.result("last-error-threads");
}

}  // namespace spmma::conformance::detail
