// wred_top replays depth vectors into wred_marker (one idle cycle after
// every four) and checks each {mark, prob} in order.
`timescale 1ns/1ns
module wred_top (
    input  wire        clk,
    input  wire        rst,
    output wire        done,
    output wire [31:0] count,
    output wire [31:0] errors
);
    wire        in_valid;
    wire [31:0] depth;
    wire        empty;
    wire        out_valid;
    wire        mark;
    wire [16:0] prob;

    vec_source #(.W(32)) src (.clk(clk), .rst(rst), .valid(in_valid), .data(depth), .empty(empty));

    wred_marker dut (
        .clk(clk), .rst(rst), .in_valid(in_valid), .depth(depth),
        .out_valid(out_valid), .mark(mark), .prob(prob)
    );

    vec_sink #(.W(18)) sink (
        .clk(clk), .rst(rst), .valid(out_valid), .data({mark, prob}),
        .count(count), .errors(errors), .done(done)
    );
endmodule
