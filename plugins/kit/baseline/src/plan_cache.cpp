#include <spmma_baseline/plan_cache.hpp>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <system_error>

namespace spmma_baseline {
namespace {

namespace fs = std::filesystem;

constexpr int kFormatVersion = 1;

nlohmann::json empty_file() { return {{"version", kFormatVersion}, {"plans", nlohmann::json::object()}}; }

// An exclusive flock on a file beside the plan file, held for the object's life.
class FileLock {
public:
    explicit FileLock(const fs::path& path) : fd_(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
        if (fd_ < 0) {
            error_ = path.string() + ": " + std::strerror(errno);
            return;
        }
        int rc;
        do rc = ::flock(fd_, LOCK_EX);
        while (rc != 0 && errno == EINTR);
        if (rc != 0) error_ = path.string() + ": flock: " + std::strerror(errno);
    }
    ~FileLock() {
        if (fd_ >= 0) ::close(fd_);  // closing releases the lock
    }
    FileLock(const FileLock&) = delete;
    FileLock& operator=(const FileLock&) = delete;
    const std::string& error() const { return error_; }

private:
    int fd_;
    std::string error_;
};

std::string env_value(const char* name) {
    const char* v = std::getenv(name);
    return v ? v : "";
}

}  // namespace

std::string PlanKey::text() const {
    return device + " " + arch + " | " + library + " | m=" + std::to_string(m) + " n=" + std::to_string(n) + " k=" + std::to_string(k) +
           " | " + types + " | " + layout;
}

nlohmann::json PlanKey::to_json() const {
    return {{"device", device}, {"arch", arch}, {"library", library}, {"m", m}, {"n", n}, {"k", k}, {"types", types}, {"layout", layout}};
}

std::string utc_now_text() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

CacheSettings cache_settings(const std::string& file_name, const std::function<std::string(const char*)>& env) {
    CacheSettings s;
    const std::string mode = env("SPMMA_PLAN_CACHE");
    if (mode.empty() || mode == "on") s.mode = CacheMode::On;
    else if (mode == "off") s.mode = CacheMode::Off;
    else if (mode == "refresh") s.mode = CacheMode::Refresh;
    else throw std::invalid_argument("SPMMA_PLAN_CACHE must be on, off or refresh (got '" + mode + "')");
    fs::path dir;
    if (const std::string d = env("SPMMA_CACHE_DIR"); !d.empty()) dir = d;
    else if (const std::string x = env("XDG_CACHE_HOME"); !x.empty()) dir = fs::path(x) / "spmma";
    else if (const std::string h = env("HOME"); !h.empty()) dir = fs::path(h) / ".cache" / "spmma";
    if (!dir.empty()) s.file = dir / file_name;
    return s;
}

CacheSettings cache_settings(const std::string& file_name) { return cache_settings(file_name, env_value); }

void PlanFile::say(const std::string& message) {
    if (std::find(notes_.begin(), notes_.end(), message) == notes_.end()) notes_.push_back(message);
}

std::string PlanFile::note() const {
    std::string s;
    for (const auto& n : notes_) s += (s.empty() ? "" : "; ") + n;
    return s;
}

std::optional<nlohmann::json> PlanFile::read() {
    std::error_code ec;
    if (!fs::exists(file_, ec)) return empty_file();
    std::ifstream in(file_, std::ios::binary);
    if (!in) {
        say(file_.string() + ": cannot be read (" + std::strerror(errno) + "): ignored");
        return std::nullopt;
    }
    std::stringstream text;
    text << in.rdbuf();
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text.str());
    } catch (const nlohmann::json::parse_error& e) {
        say(file_.string() + ": not valid JSON (" + e.what() + "): ignored");
        return std::nullopt;
    }
    if (!j.is_object() || !j.contains("version") || j["version"] != kFormatVersion || !j.contains("plans") || !j["plans"].is_object()) {
        say(file_.string() + ": not a version-" + std::to_string(kFormatVersion) + " plan file (no \"version\": " +
            std::to_string(kFormatVersion) + " and \"plans\" object): ignored");
        return std::nullopt;
    }
    return j;
}

std::optional<nlohmann::json> PlanFile::find(const PlanKey& key) {
    const auto j = read();
    if (!j) return std::nullopt;
    const auto& plans = (*j)["plans"];
    const auto it = plans.find(key.text());
    if (it == plans.end()) return std::nullopt;
    if (!it->is_object() || !it->contains("plan") || !(*it)["plan"].is_object()) {
        say(file_.string() + ": the entry for this problem has no \"plan\" object: ignored");
        return std::nullopt;
    }
    return *it;
}

bool PlanFile::store(const PlanKey& key, const nlohmann::json& plan, const nlohmann::json& search) {
    static std::atomic<unsigned> counter{0};
    std::error_code ec;
    fs::create_directories(file_.parent_path(), ec);
    if (ec) {
        say(file_.parent_path().string() + ": cannot be created (" + ec.message() + "): the plan is not stored");
        return false;
    }
    const FileLock lock(fs::path(file_.string() + ".lock"));
    if (!lock.error().empty()) {
        say(lock.error() + ": the plan is not stored");
        return false;
    }
    std::optional<nlohmann::json> j = read();
    if (!j) {
        // NOTES: a file this code cannot merge with is kept for a person to look at, not lost.
        const fs::path aside = file_.string() + ".corrupt";
        fs::rename(file_, aside, ec);
        say(ec ? "it could not be moved aside (" + ec.message() + ")" : "moved aside to " + aside.string());
        j = empty_file();
    }
    (*j)["plans"][key.text()] = {{"key", key.to_json()}, {"plan", plan}, {"search", search}, {"stored", utc_now_text()}};
    const fs::path tmp = file_.string() + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << j->dump(1) << '\n';
        out.close();
        if (!out) {
            fs::remove(tmp, ec);
            say(tmp.string() + ": cannot be written: the plan is not stored");
            return false;
        }
    }
    fs::rename(tmp, file_, ec);
    if (ec) {
        say(file_.string() + ": cannot be replaced (" + ec.message() + "): the plan is not stored");
        fs::remove(tmp, ec);
        return false;
    }
    return true;
}

}  // namespace spmma_baseline
