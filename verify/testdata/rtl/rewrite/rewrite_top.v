// rewrite_top replays frame vectors into rewrite_axis through
// vec_frame_source and checks each output beat against expected.hex
// ({tlast, tkeep, tdata} per line) with vec_sink.
`timescale 1ns/1ns
module rewrite_top (
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
    wire        m_tvalid;
    wire [63:0] m_tdata;
    wire [7:0]  m_tkeep;
    wire        m_tlast;

    vec_frame_source src (
        .clk(clk), .rst(rst), .tvalid(s_tvalid), .tdata(s_tdata),
        .tkeep(s_tkeep), .tlast(s_tlast), .empty(empty)
    );

    rewrite_axis dut (
        .clk(clk), .rst(rst),
        .s_tvalid(s_tvalid), .s_tready(s_tready), .s_tdata(s_tdata),
        .s_tkeep(s_tkeep), .s_tlast(s_tlast),
        .m_tvalid(m_tvalid), .m_tdata(m_tdata), .m_tkeep(m_tkeep), .m_tlast(m_tlast)
    );

    vec_sink #(.W(73)) sink (
        .clk(clk), .rst(rst), .valid(m_tvalid), .data({m_tlast, m_tkeep, m_tdata}),
        .count(count), .errors(errors), .done(done)
    );
endmodule
