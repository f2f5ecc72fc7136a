// Internal: the sinks and the progress line that several runners (one per device) share. Each
// record is handed to every sink whole, one at a time; the sinks are finished once, after the
// last runner; the progress line counts every runner's steps.
#pragma once

#include <spmma/core/durable_file.hpp>
#include <spmma/core/runner.hpp>

#include <mutex>
#include <vector>

namespace spmma::detail {

class SharedOutput : public Progress {
public:
    SharedOutput(const std::vector<RecordSink*>& sinks, Progress* progress) : progress_(progress) {
        for (RecordSink* s : sinks) locked_.emplace_back(s, &mutex_);
        for (auto& l : locked_) pointers_.push_back(&l);
    }
    SharedOutput(const SharedOutput&) = delete;
    SharedOutput& operator=(const SharedOutput&) = delete;

    // What each runner writes to: the same sinks, behind one lock, whose finish() waits for finish().
    const std::vector<RecordSink*>& sinks() const { return pointers_; }

    void start(size_t total_steps) override {
        std::lock_guard lock(mutex_);
        if (!started_ && progress_) progress_->start(total_steps);
        started_ = true;
    }
    void step(size_t, const std::string& what) override {
        std::lock_guard lock(mutex_);
        if (progress_) progress_->step(steps_, what);
        ++steps_;
    }
    void finish() override {}  // each runner's end; the run's end is finish_all()

    // The run's end: `cut_short` (when the run ended early) then finish() on each sink; the
    // first output error's text, "" when none.
    std::string finish_all(const std::string& cut_short) {
        std::lock_guard lock(mutex_);
        if (progress_ && started_) progress_->finish();
        std::string error;
        for (auto& l : locked_) {
            if (!cut_short.empty()) l.inner->cut_short(cut_short);
            try {
                l.inner->finish();
            } catch (const OutputError& e) {
                if (error.empty()) error = e.what();
            }
        }
        return error;
    }

private:
    struct LockedSink : RecordSink {
        LockedSink(RecordSink* s, std::mutex* m) : inner(s), mutex(m) {}
        void record(const Record& r) override {
            std::lock_guard lock(*mutex);
            inner->record(r);
        }
        void kept(const Record& r) override {
            std::lock_guard lock(*mutex);
            inner->kept(r);
        }
        void cut_short(const std::string&) override {}  // said once, by finish_all
        void finish() override {}
        RecordSink* inner;
        std::mutex* mutex;
    };

    Progress* progress_;
    std::mutex mutex_;
    std::vector<LockedSink> locked_;
    std::vector<RecordSink*> pointers_;
    bool started_ = false;
    size_t steps_ = 0;
};

}  // namespace spmma::detail
