// icrc_top replays packet vectors into icrc_axis through vec_frame_source
// and checks each ICRC against expected.hex with vec_sink.
`timescale 1ns/1ns
module icrc_top (
    input  wire        clk,
    input  wire        rst,
    output wire        done,
    output wire [31:0] count,
    output wire [31:0] errors
);
    wire        s_tvalid;
    wire [63:0] s_tdata;
    wire [7:0]  s_tkeep;
    wire        s_tlast;
    wire        s_tready;
    wire        empty;
    wire        icrc_valid;
    wire [31:0] icrc;

    vec_frame_source src (
        .clk(clk), .rst(rst), .tvalid(s_tvalid), .tdata(s_tdata),
        .tkeep(s_tkeep), .tlast(s_tlast), .empty(empty)
    );

    icrc_axis dut (
        .clk(clk), .rst(rst),
        .s_tvalid(s_tvalid), .s_tready(s_tready), .s_tdata(s_tdata),
        .s_tkeep(s_tkeep), .s_tlast(s_tlast),
        .icrc_valid(icrc_valid), .icrc(icrc)
    );

    vec_sink #(.W(32)) sink (
        .clk(clk), .rst(rst), .valid(icrc_valid), .data(icrc),
        .count(count), .errors(errors), .done(done)
    );
endmodule
