// Runs a libFuzzer target without libFuzzer: every file of the corpus folders given, then
// deterministic mutations of each (truncations, byte flips, bytes inserted and doubled runs), so
// the targets run under AddressSanitizer and UndefinedBehaviorSanitizer in every ctest run with
// the compiler the build uses. A finding aborts (the sanitizers' exit), failing the test.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

void run(const std::string& s) { LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(s.data()), s.size()); }

// A small linear congruential generator: the same mutations on every machine.
struct Lcg {
    uint64_t x;
    uint64_t next() { return x = x * 6364136223846793005ULL + 1442695040888963407ULL, x >> 33; }
};

void mutate(const std::string& seed, uint64_t salt, int count) {
    static const char* tokens[] = {"\n", "=", "\"", "[", "]", "{", "}", ",", ":", "*", "-", "9223372036854775807", "1e400", "nan", "inf", "0", "-1"};
    Lcg g{salt * 2654435761ULL + seed.size()};
    for (int i = 0; i < count; ++i) {
        std::string s = seed;
        const int edits = 1 + static_cast<int>(g.next() % 4);
        for (int e = 0; e < edits; ++e) {
            const size_t at = s.empty() ? 0 : g.next() % (s.size() + 1);
            switch (g.next() % 5) {
                case 0: s.resize(at); break;
                case 1:
                    if (at < s.size()) s[at] = static_cast<char>(s[at] ^ (1 << (g.next() % 8)));
                    break;
                case 2: s.insert(at, tokens[g.next() % std::size(tokens)]); break;
                case 3: s.insert(at, s.substr(at, g.next() % 16)); break;
                default: s.insert(at, 1, static_cast<char>(g.next() % 256)); break;
            }
        }
        run(s);
    }
}

}  // namespace

int main(int argc, char** argv) {
    int mutations = 200;
    std::vector<std::filesystem::path> files;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a.rfind("--mutations=", 0) == 0) {
            mutations = std::stoi(a.substr(12));
            continue;
        }
        if (std::filesystem::is_directory(a)) {
            for (const auto& e : std::filesystem::directory_iterator(a))
                if (e.is_regular_file()) files.push_back(e.path());
        } else {
            files.push_back(a);
        }
    }
    if (files.empty()) {
        std::fprintf(stderr, "usage: %s [--mutations=N] CORPUS_DIR_OR_FILE...\n", argv[0]);
        return 2;
    }
    std::sort(files.begin(), files.end());
    uint64_t salt = 0;
    for (const auto& f : files) {
        std::ifstream in(f, std::ios::binary);
        const std::string seed((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        run(seed);
        mutate(seed, ++salt, mutations);
    }
    std::printf("%zu inputs, %d mutations each: no finding\n", files.size(), mutations);
    return 0;
}
