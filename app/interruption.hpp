// SIGINT and SIGTERM during a run. The first one is noted (the runner starts nothing more and
// writes no record made after it), every worker is ended at once (end_all_workers), and the run
// returns through its usual end: outputs finished, exit 128 + the signal. A second one ends spmma
// at once.
#pragma once

#include <atomic>
#include <thread>

#include <signal.h>

namespace spmma::app {

class Interruption {
public:
    Interruption();   // installs the handlers and the thread that ends the workers
    ~Interruption();  // restores the handlers before
    Interruption(const Interruption&) = delete;
    Interruption& operator=(const Interruption&) = delete;
    // The signal's number once one came, else 0 (RunnerOptions::interrupt).
    const std::atomic<int>& signal() const;

private:
    struct sigaction old_int_{}, old_term_{};
    std::thread watcher_;
};

}  // namespace spmma::app
