// psn_tracker is a receiver's PSN reorder tracker over a 64-PSN window:
// epsn is the next in-order PSN, held[k] says PSN epsn+k arrived (k >= 1).
// An arriving PSN is classified by its 24-bit distance from epsn, taken in
// half-space order (the difference modulo 2^24 read as signed):
//   0 in order: epsn moves past it and every held PSN after it;
//   1 out of order: ahead by 1..63 and not held yet, now held;
//   2 duplicate: behind epsn, or already held;
//   3 out of window: ahead by 64 or more, not recorded.
// The result, the advance and the new epsn show one cycle later.
//
// Bug switch: BUG_WRAP takes the distance as a plain 25-bit difference,
// forgetting the 24-bit wrap, so PSNs around 2^24 - 1 are misjudged.
`timescale 1ns/1ns
module psn_tracker #(
    parameter [23:0] START = 24'd0
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        in_valid,
    input  wire [23:0] psn,
    output reg         out_valid,
    output reg  [1:0]  result,
    output reg  [6:0]  advance,
    output reg  [23:0] epsn_out
);
    reg  [23:0] epsn;
    reg  [63:0] held;
`ifdef BUG_WRAP
    wire signed [24:0] d = {1'b0, psn} - {1'b0, epsn};
`else
    wire [23:0] diff = psn - epsn;
    wire signed [24:0] d = {diff[23], diff};
`endif

    reg [6:0] ones;
    reg       stop;
    integer i;

    always @* begin
        ones = 7'd0;
        stop = 1'b0;
        for (i = 1; i < 64; i = i + 1) begin
            if (!stop && held[i]) ones = ones + 7'd1;
            else stop = 1'b1;
        end
    end

    wire [6:0] n = ones + 7'd1;

    always @(posedge clk) begin
        if (rst) begin
            epsn      <= START;
            held      <= 64'd0;
            out_valid <= 1'b0;
            result    <= 2'd0;
            advance   <= 7'd0;
            epsn_out  <= START;
        end else begin
            out_valid <= in_valid;
            if (in_valid) begin
                advance <= 7'd0;
                if (d < 0) begin
                    result   <= 2'd2;
                    epsn_out <= epsn;
                end else if (d >= 64) begin
                    result   <= 2'd3;
                    epsn_out <= epsn;
                end else if (d == 0) begin
                    result   <= 2'd0;
                    advance  <= n;
                    epsn     <= epsn + {17'd0, n};
                    epsn_out <= epsn + {17'd0, n};
                    held     <= held >> n;
                end else if (held[d[5:0]]) begin
                    result   <= 2'd2;
                    epsn_out <= epsn;
                end else begin
                    result   <= 2'd1;
                    epsn_out <= epsn;
                    held     <= held | (64'd1 << d[5:0]);
                end
            end
        end
    end
endmodule
