// toeplitz_top replays {src, dst, sport, dport} vectors into rss_toeplitz
// (one idle cycle after every four) and checks each hash in order.
`timescale 1ns/1ns
module toeplitz_top (
    input  wire        clk,
    input  wire        rst,
    output wire        done,
    output wire [31:0] count,
    output wire [31:0] errors
);
    wire        in_valid;
    wire [95:0] in_data;
    wire        empty;
    wire        out_valid;
    wire [31:0] hash;

    vec_source #(.W(96)) src (.clk(clk), .rst(rst), .valid(in_valid), .data(in_data), .empty(empty));

    rss_toeplitz dut (
        .clk(clk), .rst(rst), .in_valid(in_valid),
        .src(in_data[95:64]), .dst(in_data[63:32]), .sport(in_data[31:16]), .dport(in_data[15:0]),
        .out_valid(out_valid), .hash(hash)
    );

    vec_sink #(.W(32)) sink (
        .clk(clk), .rst(rst), .valid(out_valid), .data(hash),
        .count(count), .errors(errors), .done(done)
    );
endmodule
