// Model of tcgen05.cp for the 128x128b and 32x128b.warpx4 shapes (tcgen05_cp.hpp).
#include <spmma/isa/tcgen05_cp.hpp>

namespace spmma::isa {

std::vector<std::string> tcgen05_cp(TensorMemory& tmem, const SharedMemory& smem, uint32_t taddr, uint64_t s_desc,
                                    Tcgen05CpShape shape) {
    std::vector<std::string> problems;
    const UmmaDescriptor d = UmmaDescriptor::decode(s_desc, &problems);
    const OperandLayout l = OperandLayout::from(d, Major::K, 8);
    const int rows = shape == Tcgen05CpShape::R128x128b ? 128 : 32;
    const int copies = shape == Tcgen05CpShape::R128x128b ? 1 : 4;
    for (auto& s : check_operand(l, rows, 16, "tcgen05.cp source")) problems.push_back(s);
    const int lane0 = tmem_lane(taddr), col0 = tmem_column(taddr);
    if (lane0 != 0) problems.push_back("tcgen05.cp: taddr lane " + std::to_string(lane0) + " (these shapes fill lanes from 0)");
    if (col0 + 4 > TensorMemory::kColumns)
        problems.push_back("tcgen05.cp: columns " + std::to_string(col0) + "..+3 run past column 511");
    if (!problems.empty()) return problems;
    for (int r = 0; r < rows; ++r)
        for (int byte = 0; byte < 16; ++byte) {
            const uint32_t v = smem.load8(element_address(l, r, byte));
            for (int q = 0; q < copies; ++q) {
                uint32_t& cell = tmem.at(r + 32 * q, col0 + byte / 4);
                cell = (cell & ~(0xffu << (8 * (byte % 4)))) | (v << (8 * (byte % 4)));
            }
        }
    return problems;
}

}  // namespace spmma::isa
