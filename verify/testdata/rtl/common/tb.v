// Icarus Verilog testbench shared by the reference blocks: a 100 MHz clock
// (rising edges at 5, 15, 25 ns ...), reset held over the first four edges,
// the block's top (`TOP, chosen with -DTOP=name) replaying vectors, a VCD
// written to the +vcd=FILE plusarg. It ends ten cycles after the top has
// seen every expected output, printing the count of outputs and errors.
`timescale 1ns/1ns
module tb;
    reg clk = 1'b0;
    reg rst = 1'b1;
    wire done;
    wire [31:0] count, errors;
    reg [8*1024-1:0] vcd;

    always #5 clk = ~clk;

    `TOP top (.clk(clk), .rst(rst), .done(done), .count(count), .errors(errors));

    initial begin
        if (!$value$plusargs("vcd=%s", vcd)) vcd = "dump.vcd";
        $dumpfile(vcd);
        $dumpvars(0, tb);
        #42 rst = 1'b0;
    end

    initial begin
        wait (rst == 1'b0 && done);
        repeat (10) @(posedge clk);
        $display("VECTORS: %0d outputs, %0d errors", count, errors);
        $finish;
    end

    initial begin
        #20000000;
        $display("VECTORS: TIMEOUT after %0d outputs, %0d errors", count, errors);
        $finish;
    end
endmodule
