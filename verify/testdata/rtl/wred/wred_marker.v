// wred_marker is the WRED/ECN marking decision of one traffic class: the
// probability of a queue depth (bytes) is 0 at or below KMIN, 65536 (mark
// all) at or above KMAX, and in between (SLOPE * (depth - KMIN)) >> 48 with
// SLOPE = ceil(PMAX * 2^48 / (KMAX - KMIN)) (PMAX in Q0.16). Each packet
// draws 16 bits from a 32-bit Galois LFSR (mask 0x80200003, stepped 16
// times per packet, the draw is the low half of the new state) and is
// marked when draw < probability. Registered: one cycle of latency.
//
// Bug switch: BUG_KMAX takes the mark-all branch only above KMAX, so a
// packet finding the queue exactly at KMAX gets the linear probability.
`timescale 1ns/1ns
module wred_marker #(
    parameter [31:0] KMIN = 32'd1600000,
    parameter [31:0] KMAX = 32'd6400000,
    parameter [15:0] PMAX = 16'd13107,
    parameter [31:0] SEED = 32'd1
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        in_valid,
    input  wire [31:0] depth,
    output reg         out_valid,
    output reg         mark,
    output reg  [16:0] prob
);
    localparam [63:0] RANGE = {32'd0, KMAX} - {32'd0, KMIN};
    localparam [63:0] SLOPE = (({48'd0, PMAX} << 48) + RANGE - 64'd1) / RANGE;
    localparam [31:0] MASK = 32'h80200003;

    reg  [31:0] lfsr;
    reg  [31:0] nxt;
    reg  [16:0] p;
    // Only the integer part prod[63:48] of the product is used.
    /* verilator lint_off UNUSEDSIGNAL */
    reg  [63:0] prod;
    /* verilator lint_on UNUSEDSIGNAL */
    integer i;

    always @* begin
        nxt = lfsr;
        for (i = 0; i < 16; i = i + 1)
            nxt = nxt[0] ? ((nxt >> 1) ^ MASK) : (nxt >> 1);
        prod = SLOPE * ({32'd0, depth} - {32'd0, KMIN});
        if (depth <= KMIN)
            p = 17'd0;
`ifdef BUG_KMAX
        else if (depth > KMAX)
`else
        else if (depth >= KMAX)
`endif
            p = 17'h10000;
        else
            p = {1'b0, prod[63:48]};
    end

    always @(posedge clk) begin
        if (rst) begin
            lfsr      <= SEED;
            out_valid <= 1'b0;
            mark      <= 1'b0;
            prob      <= 17'd0;
        end else begin
            out_valid <= in_valid;
            if (in_valid) begin
                lfsr <= nxt;
                prob <= p;
                mark <= ({1'b0, nxt[15:0]} < p);
            end
        end
    end
endmodule
