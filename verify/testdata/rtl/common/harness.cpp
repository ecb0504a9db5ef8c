// Verilator harness (classic flow: --cc --trace --exe --build --prefix Vtop)
// for the reference blocks' tops: the same clock and reset as tb.v (rising
// edges at 10n+5 ns, reset over the first four edges), eval() then dump(t)
// every half cycle, VCD to the +vcd=FILE argument. It ends ten cycles after
// the top has seen every expected output and exits 1 if any differed.
#include <cstdio>
#include <cstring>

#include "Vtop.h"
#include "verilated.h"
#include "verilated_vcd_c.h"

int main(int argc, char** argv) {
    Verilated::commandArgs(argc, argv);
    const char* vcd = "dump.vcd";
    for (int i = 1; i < argc; i++) {
        if (std::strncmp(argv[i], "+vcd=", 5) == 0) vcd = argv[i] + 5;
    }
    Verilated::traceEverOn(true);
    Vtop* top = new Vtop;
    VerilatedVcdC* tfp = new VerilatedVcdC;
    top->trace(tfp, 99);
    tfp->open(vcd);
    top->clk = 0;
    top->rst = 1;
    top->eval();
    tfp->dump(0);
    int tail = -1;
    bool finished = false;
    for (unsigned long cyc = 0; cyc < 2000000; cyc++) {
        top->clk = 1;
        top->eval();
        tfp->dump(10 * cyc + 5);
        if (tail > 0 && --tail == 0) {
            finished = true;
            break;
        }
        top->clk = 0;
        if (cyc == 3) top->rst = 0;
        top->eval();
        tfp->dump(10 * cyc + 10);
        if (tail < 0 && !top->rst && top->done) tail = 10;
    }
    std::printf("VECTORS: %s%u outputs, %u errors\n", finished ? "" : "TIMEOUT after ", top->count, top->errors);
    int rc = (top->errors || !finished) ? 1 : 0;
    tfp->close();
    top->final();
    delete tfp;
    delete top;
    return rc;
}
