#include <spmma/core/compare.hpp>

#include <spmma/core/median.hpp>

#include <fmt/format.h>

#include <map>

namespace spmma {
namespace {

// failed, error, unknown > verified, unverified > skipped: the status a pooled key keeps.
int severity(const StoredRecord& r) { return r.bad() ? 2 : r.ran() ? 1 : 0; }

std::vector<PooledRecord> pool(const std::vector<StoredRecord>& records) {
    std::vector<PooledRecord> out;
    std::vector<std::vector<double>> clocks;  // per pooled key: the SM clock of each record that has one
    std::map<std::string, size_t> index;
    for (const auto& r : records) {
        const std::string key = r.problem_key + '\x1f' + r.plugin + '\x1f' + r.kernel + '\x1f' + r.device;
        const auto [it, fresh] = index.emplace(key, out.size());
        if (fresh) clocks.emplace_back();
        if (r.sm_mhz > 0) clocks[it->second].push_back(r.sm_mhz);
        if (fresh) {
            out.push_back({r, 1});
            if (!r.ran()) out.back().record.times_ms.clear();
            continue;
        }
        PooledRecord& p = out[it->second];
        ++p.count;
        std::vector<double> times = std::move(p.record.times_ms);
        const int dropped = p.record.dropped_times + r.dropped_times;
        if (r.ran()) times.insert(times.end(), r.times_ms.begin(), r.times_ms.end());
        if (severity(r) > severity(p.record)) p.record = r;
        p.record.times_ms = std::move(times);
        p.record.dropped_times = dropped;
    }
    for (size_t i = 0; i < out.size(); ++i) {
        PooledRecord& p = out[i];
        if (p.count == 1) continue;
        if (!p.record.times_ms.empty()) p.record.median_ms = median(p.record.times_ms);
        p.record.sm_mhz = median(clocks[i]);
    }
    return out;
}

StatusChange status_change(const StoredRecord& o, const StoredRecord& n) {
    if (o.ran()) return n.ran() ? StatusChange::BothRan : n.bad() ? StatusChange::Broke : StatusChange::Lost;
    if (o.bad()) return n.ran() ? StatusChange::Fixed : n.bad() ? StatusChange::StillBad : StatusChange::NoLongerBad;
    return n.ran() ? StatusChange::NewlyRan : n.bad() ? StatusChange::NowBad : StatusChange::BothSkipped;
}

std::string percent(double ratio) { return fmt::format("{:+.1f}%", 100 * (ratio - 1)); }

// The clock's change as people say it: "-9 %", "+2.5 %".
std::string clock_change(double ratio) {
    std::string s = fmt::format("{:+.1f}", 100 * (ratio - 1));
    if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
    return s + " %";
}

// A change of time that the cycles call "same" is the clock's alone.
bool only_the_clock(const CompareRow& row) {
    return row.clock_ratio > 0 && row.by_cycles == TimingVerdict::Same &&
           (row.by_time == TimingVerdict::Slower || row.by_time == TimingVerdict::Faster);
}

std::string verdict_word(const CompareRow& row) {
    if (!only_the_clock(row)) return to_string(row.timing);
    const char* word = row.by_time == TimingVerdict::Faster ? "faster" : row.fails ? "SLOWER" : "slower";
    return fmt::format("{}, clock {}: same cycles", word, clock_change(row.clock_ratio));
}

// "clock 1980 -> 1800 MHz (-9 %), per clock +0.2% (-0.1% .. +0.5%): same"
std::string clock_detail(const CompareRow& row) {
    const RatioInterval& c = row.cycles;
    std::string s = fmt::format("clock {:.0f} -> {:.0f} MHz ({}), per clock {}", row.old_side.record.sm_mhz, row.new_side.record.sm_mhz,
                                clock_change(row.clock_ratio), percent(c.estimate));
    if (c.defined) s += fmt::format(" ({} .. {})", percent(c.lower), percent(c.upper));
    return s + ": " + to_string(row.by_cycles);
}

// Fills timing, verdict and detail of a row whose statuses are known.
void judge(CompareRow& row, const CompareOptions& opt) {
    const StoredRecord &o = row.old_side.record, &n = row.new_side.record;
    switch (row.status) {
        case StatusChange::Broke:
        case StatusChange::Lost:
            row.fails = true;
            row.verdict = "REGRESSION";
            row.detail = fmt::format("was {}, now {}", o.status, n.status_line());
            return;
        case StatusChange::StillBad:
        case StatusChange::NowBad:
            row.fails = true;
            row.verdict = "FAILING";
            row.detail = row.status == StatusChange::StillBad ? "still " + n.status_line() : fmt::format("{} (was skipped)", n.status_line());
            return;
        case StatusChange::Fixed: row.verdict = "fixed"; row.detail = fmt::format("was {}, now {}", o.status_line(), n.status); return;
        case StatusChange::NewlyRan: row.verdict = "runs now"; row.detail = fmt::format("was skipped: {}", o.reason); return;
        case StatusChange::BothSkipped: row.verdict = "skipped"; row.detail = n.reason; return;
        case StatusChange::NoLongerBad: row.verdict = "skipped"; row.detail = fmt::format("was {}, now skipped: {}", o.status, n.reason); return;
        case StatusChange::BothRan: break;
    }
    // NOTES: a run under test that ran but kept no time is a failure of that run (its timings
    // were lost or never made), never "too noisy", which would pass the gate.
    if (n.times_ms.empty()) {
        row.fails = true;
        row.verdict = "FAILING";
        row.detail = fmt::format("no iteration times in the new record ({} entries not finite and positive)", n.dropped_times);
        return;
    }
    if (o.times_ms.empty()) {
        row.verdict = to_string(row.timing);
        row.detail = "no iteration times in the old record: nothing to compare with";
        return;
    }
    row.interval = ratio_interval(o.times_ms, n.times_ms, opt.confidence);
    row.by_time = judge_timing(row.interval, opt.threshold);
    if (o.sm_mhz > 0 && n.sm_mhz > 0) {
        row.clock_ratio = n.sm_mhz / o.sm_mhz;
        row.cycles = per_clock_interval(row.interval, row.clock_ratio);
        row.by_cycles = judge_timing(row.cycles, opt.threshold);
    }
    row.timing = opt.per_clock && row.clock_ratio > 0 ? row.by_cycles : row.by_time;
    row.fails = row.timing == TimingVerdict::Slower;
    row.verdict = verdict_word(row);
    const RatioInterval& ci = row.interval;
    if (!ci.defined) {
        row.detail = fmt::format("{} and {} iterations cannot give a {:g}% interval", ci.n_old, ci.n_new, 100 * opt.confidence);
        return;
    }
    const std::string range = fmt::format("{} .. {}", percent(ci.lower), percent(ci.upper));
    const double t = 100 * opt.threshold;
    switch (row.by_time) {
        case TimingVerdict::Slower:
            row.detail = fmt::format("{} slower; interval {} lies above +{:g}%", percent(ci.estimate), range, t);
            break;
        case TimingVerdict::Faster: row.detail = fmt::format("interval {} lies below -{:g}%", range, t); break;
        case TimingVerdict::Same: row.detail = fmt::format("interval {} within +-{:g}%", range, t); break;
        default: row.detail = fmt::format("interval {} reaches across +-{:g}%", range, t); break;
    }
    if (row.clock_ratio > 0) row.detail += "; " + clock_detail(row);
    if (n.status != o.status) row.detail += fmt::format("; was {}, now {}", o.status, n.status);
    if (o.dropped_times + n.dropped_times > 0)
        row.detail += fmt::format("; non-finite times left out: {} old, {} new", o.dropped_times, n.dropped_times);
}

void count(CompareResult& r, const CompareRow& row) {
    switch (row.timing) {
        case TimingVerdict::Slower: ++r.slower; break;
        case TimingVerdict::Faster: ++r.faster; break;
        case TimingVerdict::Same: ++r.same; break;
        case TimingVerdict::TooNoisy: ++r.too_noisy; break;
        case TimingVerdict::NotCompared: break;
    }
    const bool regression = row.status == StatusChange::Broke || row.status == StatusChange::Lost || row.timing == TimingVerdict::Slower;
    r.regressions += regression;
    r.clock_only += only_the_clock(row) && row.by_time == TimingVerdict::Slower;
    r.failures += row.fails && !regression;  // still or newly bad, or a new record without times
}

}  // namespace

const char* to_string(TimingVerdict v) {
    switch (v) {
        case TimingVerdict::NotCompared: return "not compared";
        case TimingVerdict::Faster: return "faster";
        case TimingVerdict::Same: return "same";
        case TimingVerdict::Slower: return "SLOWER";
        case TimingVerdict::TooNoisy: return "too noisy";
    }
    return "?";
}

TimingVerdict judge_timing(const RatioInterval& ci, double threshold) {
    if (!ci.defined) return TimingVerdict::TooNoisy;
    if (ci.lower > 1 + threshold) return TimingVerdict::Slower;
    if (ci.upper < 1 - threshold) return TimingVerdict::Faster;
    if (ci.lower >= 1 - threshold && ci.upper <= 1 + threshold) return TimingVerdict::Same;
    return TimingVerdict::TooNoisy;
}

RatioInterval per_clock_interval(const RatioInterval& time, double clock_ratio) {
    // NOTES: cycles = time x clock, so new/old cycles = new/old time x new/old clock; the clock is
    // the median of NVML's samples over the timed launches and taken as known (its own spread is
    // not in the interval).
    RatioInterval c = time;
    c.estimate *= clock_ratio;
    c.lower *= clock_ratio;
    c.upper *= clock_ratio;
    return c;
}

int CompareResult::exit_code() const {
    if (rows.empty()) return 3;
    return regressions + failures > 0 ? 1 : 0;
}

std::string CompareResult::method() const {
    return fmt::format(
        "change = new/old time per matched record: Hodges-Lehmann estimate over every pair of iterations (log time), with its "
        "{:g}% distribution-free Mann-Whitney (Moses) interval, exact up to 120 iterations in all; slower / faster: the whole "
        "interval beyond +{:g}% / -{:g}%; same: the whole interval within; too noisy: it reaches across; where both records carry "
        "their SM clock, per clock = new/old time x new/old clock, judged alike{}",
        100 * options.confidence, 100 * options.threshold, 100 * options.threshold,
        options.per_clock ? " and deciding the verdict (--per-clock)" : " (--per-clock lets it decide the verdict)");
}

CompareResult compare_records(const std::vector<StoredRecord>& old_records, const std::vector<StoredRecord>& new_records,
                              const CompareOptions& options) {
    CompareResult r;
    r.options = options;
    r.old_records = old_records.size();
    r.new_records = new_records.size();
    std::vector<PooledRecord> olds = pool(old_records), news = pool(new_records);
    // Old records by problem, plugin and kernel; the device decides among them.
    std::map<std::string, std::vector<size_t>> by_key;
    for (size_t i = 0; i < olds.size(); ++i) {
        const StoredRecord& o = olds[i].record;
        by_key[o.problem_key + '\x1f' + o.plugin + '\x1f' + o.kernel].push_back(i);
    }
    std::vector<bool> used(olds.size(), false);
    for (auto& n : news) {
        const StoredRecord& nr = n.record;
        const auto it = by_key.find(nr.problem_key + '\x1f' + nr.plugin + '\x1f' + nr.kernel);
        size_t match = olds.size();
        if (it != by_key.end()) {
            for (size_t i : it->second)  // the same device first, then one where either names none
                if (!used[i] && olds[i].record.device == nr.device) { match = i; break; }
            if (match == olds.size())
                for (size_t i : it->second)
                    if (!used[i] && (olds[i].record.device.empty() || nr.device.empty())) { match = i; break; }
        }
        if (match == olds.size()) {
            r.failures += nr.bad();
            r.only_new.push_back(std::move(n));
            continue;
        }
        used[match] = true;
        CompareRow row;
        row.old_side = olds[match];
        row.new_side = std::move(n);
        row.status = status_change(row.old_side.record, row.new_side.record);
        judge(row, options);
        count(r, row);
        r.rows.push_back(std::move(row));
    }
    for (size_t i = 0; i < olds.size(); ++i)
        if (!used[i]) r.only_old.push_back(std::move(olds[i]));
    return r;
}

CompareResult compare_files(const std::filesystem::path& old_file, const std::filesystem::path& new_file, const CompareOptions& options) {
    CompareResult r = compare_records(read_record_file(old_file), read_record_file(new_file), options);
    r.old_file = old_file.string();
    r.new_file = new_file.string();
    return r;
}

}  // namespace spmma
