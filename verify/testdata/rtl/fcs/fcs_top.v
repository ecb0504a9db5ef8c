// fcs_top replays frame vectors ({tlast, tkeep[7:0], tdata[63:0]} per
// line, +stim=FILE, +nstim=N lines) into fcs_axis, one beat per cycle with
// one idle cycle after each frame, and checks each FCS against expected.hex
// (+exp=FILE, +nexp=N).
`timescale 1ns/1ns
module fcs_top (
    input  wire        clk,
    input  wire        rst,
    output wire        done,
    output wire [31:0] count,
    output wire [31:0] errors
);
    reg [72:0] mem [0:16383];
    reg [8*1024-1:0] path;
    integer n;
    reg [31:0] idx;
    reg gap;
    reg s_tvalid;
    reg [63:0] s_tdata;
    reg [7:0] s_tkeep;
    reg s_tlast;
    wire s_tready;
    wire fcs_valid;
    wire [31:0] fcs;

    initial begin
        n = 0;
        if ($value$plusargs("stim=%s", path)) $readmemh(path, mem);
        if (!$value$plusargs("nstim=%d", n)) n = 0;
    end

    always @(posedge clk) begin
        if (rst) begin
            idx      <= 32'd0;
            gap      <= 1'b0;
            s_tvalid <= 1'b0;
            s_tdata  <= 64'd0;
            s_tkeep  <= 8'd0;
            s_tlast  <= 1'b0;
        end else if (gap || idx >= n) begin
            gap      <= 1'b0;
            s_tvalid <= 1'b0;
            s_tlast  <= 1'b0;
        end else begin
            {s_tlast, s_tkeep, s_tdata} <= mem[idx];
            s_tvalid <= 1'b1;
            gap      <= mem[idx][72];
            idx      <= idx + 32'd1;
        end
    end

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
