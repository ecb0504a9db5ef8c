// psn_top replays PSN vectors into psn_tracker (one idle cycle after every
// four) and checks each {result, advance, epsn} in order. START comes from
// the START define (default 0) so that a test can start near the wrap.
`timescale 1ns/1ns
`ifndef START
`define START 24'd0
`endif
module psn_top (
    input  wire        clk,
    input  wire        rst,
    output wire        done,
    output wire [31:0] count,
    output wire [31:0] errors
);
    wire        in_valid;
    wire [23:0] psn;
    wire        empty;
    wire        out_valid;
    wire [1:0]  result;
    wire [6:0]  advance;
    wire [23:0] epsn;

    vec_source #(.W(24)) src (.clk(clk), .rst(rst), .valid(in_valid), .data(psn), .empty(empty));

    psn_tracker #(.START(`START)) dut (
        .clk(clk), .rst(rst), .in_valid(in_valid), .psn(psn),
        .out_valid(out_valid), .result(result), .advance(advance), .epsn_out(epsn)
    );

    vec_sink #(.W(50)) sink (
        .clk(clk), .rst(rst), .valid(out_valid), .data({result, 17'd0, advance, epsn}),
        .count(count), .errors(errors), .done(done)
    );
endmodule
