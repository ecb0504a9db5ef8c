// fcs_top replays frame vectors into fcs_axis through vec_frame_source
// (one beat per cycle, one idle cycle after each frame) and checks each FCS
// against expected.hex with vec_sink.
`timescale 1ns/1ns
module fcs_top (
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
    wire        fcs_valid;
    wire [31:0] fcs;

    vec_frame_source src (
        .clk(clk), .rst(rst), .tvalid(s_tvalid), .tdata(s_tdata),
        .tkeep(s_tkeep), .tlast(s_tlast), .empty(empty)
    );

    fcs_axis dut (
        .clk(clk), .rst(rst),
        .s_tvalid(s_tvalid), .s_tready(s_tready), .s_tdata(s_tdata),
        .s_tkeep(s_tkeep), .s_tlast(s_tlast),
        .fcs_valid(fcs_valid), .fcs(fcs)
    );

    vec_sink #(.W(32)) sink (
        .clk(clk), .rst(rst), .valid(fcs_valid), .data(fcs),
        .count(count), .errors(errors), .done(done)
    );
endmodule
