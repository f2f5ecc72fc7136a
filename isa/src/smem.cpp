// Shared memory model, matrix descriptors of wgmma and tcgen05, canonical operand layouts.
#include <spmma/isa/smem.hpp>

#include <cstring>
#include <stdexcept>
#include <string>

namespace spmma::isa {
namespace {

std::string hex(uint64_t v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

// matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4: a 14-bit field of 16-byte units.
uint64_t encode14(uint32_t bytes, const char* what) {
    if (bytes & 0xf) throw std::invalid_argument(std::string(what) + " " + hex(bytes) + " is not a multiple of 16");
    if (bytes > 0x3FFFF) throw std::invalid_argument(std::string(what) + " " + hex(bytes) + " does not fit 18 bits");
    return (bytes >> 4) & 0x3FFF;
}

uint32_t field(uint64_t v, int lo, int width) { return static_cast<uint32_t>((v >> lo) & ((1ull << width) - 1)); }

}  // namespace

// ---- shared memory ---------------------------------------------------------------------------

uint8_t SharedMemory::load8(uint32_t addr) const {
    if (addr >= bytes.size()) throw std::out_of_range("shared memory read at " + hex(addr));
    return bytes[addr];
}

void SharedMemory::store8(uint32_t addr, uint8_t v) {
    if (addr >= bytes.size()) throw std::out_of_range("shared memory write at " + hex(addr));
    bytes[addr] = v;
}

uint32_t SharedMemory::load(uint32_t addr, int nbytes) const {
    uint32_t v = 0;
    for (int i = 0; i < nbytes; ++i) v |= uint32_t(load8(addr + i)) << (8 * i);
    return v;
}

void SharedMemory::store(uint32_t addr, int nbytes, uint32_t v) {
    for (int i = 0; i < nbytes; ++i) store8(addr + i, static_cast<uint8_t>(v >> (8 * i)));
}

void SharedMemory::write(uint32_t addr, const void* src, size_t n) {
    if (size_t(addr) + n > bytes.size()) throw std::out_of_range("shared memory write of " + std::to_string(n) + " bytes at " + hex(addr));
    std::memcpy(bytes.data() + addr, src, n);
}

// ---- swizzle -----------------------------------------------------------------------------------

const char* name(Swizzle s) {
    switch (s) {
        case Swizzle::None: return "none";
        case Swizzle::B32: return "32B";
        case Swizzle::B64: return "64B";
        case Swizzle::B128: return "128B";
        case Swizzle::B128_Atom32: return "128B/32B-atom";
    }
    return "?";
}

int swizzle_row_bytes(Swizzle s) {
    switch (s) {
        case Swizzle::None: return 16;
        case Swizzle::B32: return 32;
        case Swizzle::B64: return 64;
        case Swizzle::B128: case Swizzle::B128_Atom32: return 128;
    }
    return 16;
}

// NOTES: the swizzle XORs the 16-byte-chunk bits of an address (bits 4.. of the row) with the
// row-within-pattern bits (bits 7..): the pattern of an R-byte swizzle is 8 rows of R bytes, and
// its chunk c of row r is stored at chunk c ^ (r % (R/16)). The PTX text places the pattern at
// 256/512/1024-byte boundaries with base offset 0; for a pattern that starts elsewhere it asks for
// base offset = (pattern start >> 7) & 7. We model that as the row counted from the pattern
// start, ((addr >> 7) - base_offset); the text gives no formula, so check_operand reports any
// non-zero base offset as unmodelled.
uint32_t swizzle_address(Swizzle s, uint32_t addr, int base_offset) {
    const uint32_t row = (addr >> 7) - static_cast<uint32_t>(base_offset);
    switch (s) {
        case Swizzle::None: return addr;
        case Swizzle::B32: return addr ^ ((row & 1u) << 4);
        case Swizzle::B64: return addr ^ ((row & 3u) << 4);
        case Swizzle::B128: return addr ^ ((row & 7u) << 4);
        case Swizzle::B128_Atom32: return addr ^ ((row & 3u) << 5);
    }
    return addr;
}

// ---- wgmma descriptor --------------------------------------------------------------------------

uint64_t WgmmaDescriptor::encode() const {
    uint64_t mode;
    switch (swizzle) {
        case Swizzle::None: mode = 0; break;
        case Swizzle::B128: mode = 1; break;
        case Swizzle::B64: mode = 2; break;
        case Swizzle::B32: mode = 3; break;
        default: throw std::invalid_argument(std::string("wgmma descriptor has no swizzle mode ") + name(swizzle));
    }
    if (base_offset < 0 || base_offset > 7) throw std::invalid_argument("wgmma descriptor base offset " + std::to_string(base_offset) + " is not 3 bits");
    return encode14(start_address, "start address") | (encode14(leading_byte_offset, "leading byte offset") << 16) |
           (encode14(stride_byte_offset, "stride byte offset") << 32) | (uint64_t(base_offset) << 49) | (mode << 62);
}

WgmmaDescriptor WgmmaDescriptor::decode(uint64_t desc, std::vector<std::string>* problems) {
    WgmmaDescriptor d;
    d.start_address = field(desc, 0, 14) << 4;
    d.leading_byte_offset = field(desc, 16, 14) << 4;
    d.stride_byte_offset = field(desc, 32, 14) << 4;
    d.base_offset = static_cast<int>(field(desc, 49, 3));
    static constexpr Swizzle kModes[4] = {Swizzle::None, Swizzle::B128, Swizzle::B64, Swizzle::B32};
    d.swizzle = kModes[field(desc, 62, 2)];
    // Bits the table does not define: 15..14, 31..30, 48..46, 61..52.
    const uint64_t defined = 0x3FFFull | (0x3FFFull << 16) | (0x3FFFull << 32) | (0x7ull << 49) | (0x3ull << 62);
    if (problems && (desc & ~defined))
        problems->push_back("wgmma descriptor " + hex(desc) + " sets bits outside its fields (" + hex(desc & ~defined) + ")");
    return d;
}

// ---- tcgen05 shared memory descriptor ---------------------------------------------------------

uint64_t UmmaDescriptor::encode() const {
    uint64_t mode;
    switch (swizzle) {
        case Swizzle::None: mode = 0; break;
        case Swizzle::B128_Atom32: mode = 1; break;
        case Swizzle::B128: mode = 2; break;
        case Swizzle::B64: mode = 4; break;
        case Swizzle::B32: mode = 6; break;
        default: mode = 0;
    }
    if (base_offset < 0 || base_offset > 7) throw std::invalid_argument("tcgen05 descriptor base offset " + std::to_string(base_offset) + " is not 3 bits");
    if (version < 0 || version > 7) throw std::invalid_argument("tcgen05 descriptor version " + std::to_string(version) + " is not 3 bits");
    return encode14(start_address, "start address") | (encode14(leading_byte_offset, "leading byte offset") << 16) |
           (encode14(stride_byte_offset, "stride byte offset") << 32) | (uint64_t(version) << 46) |
           (uint64_t(base_offset) << 49) | (uint64_t(lbo_absolute ? 1 : 0) << 52) | (mode << 61);
}

UmmaDescriptor UmmaDescriptor::decode(uint64_t desc, std::vector<std::string>* problems) {
    UmmaDescriptor d;
    d.start_address = field(desc, 0, 14) << 4;
    d.leading_byte_offset = field(desc, 16, 14) << 4;
    d.stride_byte_offset = field(desc, 32, 14) << 4;
    d.version = static_cast<int>(field(desc, 46, 3));
    d.base_offset = static_cast<int>(field(desc, 49, 3));
    d.lbo_absolute = field(desc, 52, 1) != 0;
    const uint32_t mode = field(desc, 61, 3);
    switch (mode) {
        case 0: d.swizzle = Swizzle::None; break;
        case 1: d.swizzle = Swizzle::B128_Atom32; break;
        case 2: d.swizzle = Swizzle::B128; break;
        case 4: d.swizzle = Swizzle::B64; break;
        case 6: d.swizzle = Swizzle::B32; break;
        default:
            d.swizzle = Swizzle::None;
            if (problems) problems->push_back("tcgen05 smem descriptor " + hex(desc) + ": swizzle mode " + std::to_string(mode) + " is invalid (3, 5, 7)");
    }
    if (!problems) return d;
    const uint64_t reserved = (0x3ull << 14) | (0x3ull << 30) | (0xFFull << 53);
    if (desc & reserved)
        problems->push_back("tcgen05 smem descriptor " + hex(desc) + " sets reserved bits (" + hex(desc & reserved) + ")");
    if (d.version != 1)
        problems->push_back("tcgen05 smem descriptor " + hex(desc) + ": bits 48..46 are " + std::to_string(d.version) + ", must be the fixed value 0b001");
    if (d.lbo_absolute)
        problems->push_back("tcgen05 smem descriptor " + hex(desc) + ": leading-dimension absolute address mode (bit 52) needs sm_103a; not modelled for sm_100a");
    return d;
}

// ---- canonical layouts ---------------------------------------------------------------------------

OperandLayout OperandLayout::from(const WgmmaDescriptor& d, Major major, int elem_bits, bool padded16) {
    return {d.start_address, d.leading_byte_offset, d.stride_byte_offset, d.base_offset, d.swizzle, major, elem_bits, padded16};
}

OperandLayout OperandLayout::from(const UmmaDescriptor& d, Major major, int elem_bits, bool padded16) {
    return {d.start_address, d.leading_byte_offset, d.stride_byte_offset, d.base_offset, d.swizzle, major, elem_bits, padded16};
}

// NOTES: the formulas are the canonical layouts of PTX 9.7.15.5.1.2.1.3 in CuTe notation,
//   K-major:  ((8,m),(T,2k)):((1T,SBO),(1,LBO))  no swizzle;  ((8,m),(T,2k)):((WT,SBO),(1,T))  swizzled
//   MN-major: ((T,1,m),(8,k)):((1,T,SBO),(1T,LBO)); ((T,W,m),(8,k)):((1,T,LBO),(WT,SBO))
// (in elements; W = R/16), followed by Swizzle<log2 W, 4, 3> on the byte address.
uint64_t element_bit_address(const OperandLayout& l, int mn, int k) {
    if (l.swizzle == Swizzle::B128_Atom32)
        throw std::invalid_argument("element_address: the 128B swizzle with 32B atomicity is not modelled");
    const int t = l.per_chunk();
    const uint32_t row_bytes = static_cast<uint32_t>(swizzle_row_bytes(l.swizzle));
    const uint32_t w = row_bytes / 16;  // chunks per swizzle row
    uint32_t off;
    int within;
    if (l.major == Major::K) {
        const uint32_t kc = static_cast<uint32_t>(k / t), r = static_cast<uint32_t>(mn % 8), g = static_cast<uint32_t>(mn / 8);
        within = k % t;
        if (l.swizzle == Swizzle::None) off = r * 16 + g * l.stride_byte_offset + kc * l.leading_byte_offset;
        else off = r * row_bytes + g * l.stride_byte_offset + kc * 16;
    } else {
        const uint32_t mc = static_cast<uint32_t>(mn / t), kr = static_cast<uint32_t>(k % 8), kg = static_cast<uint32_t>(k / 8);
        within = mn % t;
        if (l.swizzle == Swizzle::None) off = kr * 16 + kg * l.leading_byte_offset + mc * l.stride_byte_offset;
        else off = (mc % w) * 16 + kr * row_bytes + (mc / w) * l.leading_byte_offset + kg * l.stride_byte_offset;
    }
    const uint32_t chunk = swizzle_address(l.swizzle, l.start_address + off, l.base_offset);
    return uint64_t(chunk) * 8 + uint64_t(within) * uint64_t(l.elem_bits);
}

uint32_t element_address(const OperandLayout& l, int mn, int k, int* nibble) {
    const uint64_t bit = element_bit_address(l, mn, k);
    if (nibble) *nibble = l.elem_bits == 4 ? static_cast<int>((bit % 8) / 4) : 0;
    return static_cast<uint32_t>(bit / 8);
}

uint32_t load_element(const SharedMemory& smem, const OperandLayout& l, int mn, int k) {
    const uint64_t bit = element_bit_address(l, mn, k);
    const uint32_t byte = static_cast<uint32_t>(bit / 8);
    const int sh = static_cast<int>(bit % 8);
    const int nbytes = (sh + l.elem_bits + 7) / 8;
    uint64_t v = 0;
    for (int i = 0; i < nbytes; ++i) v |= uint64_t(smem.load8(byte + i)) << (8 * i);
    return static_cast<uint32_t>((v >> sh) & ((uint64_t(1) << l.elem_bits) - 1));
}

void store_element(SharedMemory& smem, const OperandLayout& l, int mn, int k, uint32_t code) {
    const uint64_t bit = element_bit_address(l, mn, k);
    const uint32_t byte = static_cast<uint32_t>(bit / 8);
    const int sh = static_cast<int>(bit % 8);
    const int nbytes = (sh + l.elem_bits + 7) / 8;
    uint64_t v = 0;
    for (int i = 0; i < nbytes; ++i) v |= uint64_t(smem.load8(byte + i)) << (8 * i);
    const uint64_t mask = ((uint64_t(1) << l.elem_bits) - 1) << sh;
    v = (v & ~mask) | ((uint64_t(code) << sh) & mask);
    for (int i = 0; i < nbytes; ++i) smem.store8(byte + i, static_cast<uint8_t>(v >> (8 * i)));
}

std::vector<std::string> check_operand(const OperandLayout& l, int mn_extent, int k_extent, const char* what) {
    std::vector<std::string> p;
    if (l.swizzle == Swizzle::B128_Atom32) {
        p.push_back(std::string(what) + ": swizzle mode 128B with 32B atomicity is not modelled");
        return p;
    }
    const bool bits_ok = l.padded16 ? (l.elem_bits == 4 || l.elem_bits == 6)
                                    : (l.elem_bits == 4 || l.elem_bits == 8 || l.elem_bits == 16 || l.elem_bits == 32);
    if (!bits_ok) {
        p.push_back(std::string(what) + ": element width " + std::to_string(l.elem_bits) + " bits has no canonical layout");
        return p;
    }
    if (l.swizzle != Swizzle::None && l.base_offset != 0)
        p.push_back(std::string(what) + ": matrix base offset " + std::to_string(l.base_offset) +
                    " (swizzle pattern not at its 256/512/1024-byte boundary): the PTX text gives no address formula; not modelled");
    const int k_bytes = (k_extent + l.per_chunk() - 1) / l.per_chunk() * 16;
    if (l.major == Major::K && l.swizzle != Swizzle::None && k_bytes > swizzle_row_bytes(l.swizzle))
        p.push_back(std::string(what) + ": K-major operand " + std::to_string(k_bytes) +
                    " bytes wide along K does not fit the " + name(l.swizzle) +
                    " swizzle row: the canonical layout's K chunks (stride 16 B, LBO unused) would overlap the next row; not modelled");
    uint64_t worst = 0;
    for (int mn = 0; mn < mn_extent; ++mn)
        for (int k = 0; k < k_extent; ++k) {
            const uint64_t a = (element_bit_address(l, mn, k) + static_cast<uint64_t>(l.elem_bits) - 1) / 8;
            if (a > worst) worst = a;
        }
    if (worst >= SharedMemory::kBytes)
        p.push_back(std::string(what) + ": the operand reaches shared-memory byte " + hex(worst) + ", past the " +
                    std::to_string(SharedMemory::kBytes) + " bytes of a CTA");
    return p;
}

}  // namespace spmma::isa
