#include <spmma/core/durable_file.hpp>
#include <spmma/core/junit_sink.hpp>

#include <fmt/format.h>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <stdexcept>

namespace spmma {

JunitCase junit_case(const StoredRecord& r) {
    JunitCase c;
    c.classname = junit_classname(r.plugin, r.kernel);
    c.name = r.label + (r.plugin_kind == "dense" ? " dense" : "");
    c.time_s = r.total_seconds();
    if (r.median_ms > 0)
        c.system_out = fmt::format("median {:.4f} ms over {} iterations, {:.4g} TFLOP/s\n", r.median_ms, r.times_ms.size(), r.tflops());
    if (!r.device.empty()) c.system_out += "device: " + r.device + (r.device_arch.empty() ? "" : " (" + r.device_arch + ")") + "\n";
    if (r.has_verification) c.system_out += fmt::format("verification: {}, {} elements checked\n", r.verify_mode, r.checked);
    if (!r.command.empty()) c.system_out += "rerun: " + r.command + "\n";
    if (r.status == "verified") return c;
    if (r.status == "unverified") {
        c.system_out = "not verified (--verify none)\n" + c.system_out;
        return c;
    }
    if (r.skipped()) {
        c.outcome = JunitOutcome::Skipped;
        c.message = r.reason.empty() ? "skipped" : r.reason;
        return c;
    }
    if (r.status == "failed") {
        c.outcome = JunitOutcome::Failure;
        c.type = "verification";
        c.message = r.reason.empty() ? "verification failed" : r.reason;
        c.detail = fmt::format("{}\n{} of {} checked elements outside the tolerance ({})\n{}", c.message, r.mismatches, r.checked, r.verify_mode,
                               r.mismatch_lines());
        return c;
    }
    c.outcome = JunitOutcome::Error;
    c.type = r.stage.empty() ? r.status : r.stage;
    c.message = r.status_line();
    c.detail = c.message + "\n";
    return c;
}

std::vector<JunitSuite> junit_suites(const std::vector<StoredRecord>& records) {
    std::vector<JunitSuite> suites;
    std::map<std::string, size_t> index;
    for (const auto& r : records) {
        const std::string plugin = r.plugin.empty() ? "spmma" : r.plugin;
        const auto [it, fresh] = index.emplace(plugin, suites.size());
        if (fresh) {
            JunitSuite s;
            s.name = plugin;
            s.timestamp = junit_timestamp(r.timestamp);
            s.hostname = r.host;
            if (!r.spmma_version.empty()) s.properties.emplace_back("spmma_version", r.spmma_version);
            if (!r.device.empty()) s.properties.emplace_back("device", r.device);
            suites.push_back(std::move(s));
        }
        suites[it->second].cases.push_back(junit_case(r));
    }
    return suites;
}

JunitSink::JunitSink(std::filesystem::path path, std::string document_name) : path_(std::move(path)), name_(std::move(document_name)) {
    // NOTES: opened without truncating: the file is replaced whole when the run ends, so an
    // earlier report stays readable until then.
    const int fd = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) throw OutputError(path_.string(), fmt::format("cannot write {}: {}", path_.string(), std::strerror(errno)));
    ::close(fd);
}

JunitSink::~JunitSink() {
    if (written_) return;
    try {
        write_junit(path_, name_, suites());
    } catch (...) {  // NOTES: a destructor must not throw; the run's own error is what matters then
    }
}

std::vector<JunitSuite> JunitSink::suites() const {
    std::vector<JunitSuite> all = junit_suites(records_);
    if (cut_short_.empty()) return all;
    JunitCase c;
    c.classname = "spmma.run";
    c.name = "not run";
    c.outcome = JunitOutcome::Error;
    c.type = "cut short";
    c.message = cut_short_;
    c.detail = cut_short_ + "\n";
    JunitSuite s;
    s.name = "spmma";
    s.cases.push_back(std::move(c));
    all.push_back(std::move(s));
    return all;
}

void JunitSink::record(const Record& r) {
    // NOTES: through the record's JSON, so a live record and one read back from a file become the
    // same test case (one conversion, the one compare and report use).
    records_.push_back(parse_record_line(r.to_json().dump(), "record"));
}

void JunitSink::finish() {
    written_ = true;
    write_junit(path_, name_, suites());
}

}  // namespace spmma
