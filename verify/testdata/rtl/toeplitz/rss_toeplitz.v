// rss_toeplitz is the RSS Toeplitz hash of an IPv4 4-tuple (source and
// destination address, source and destination port: 12 bytes, big-endian)
// with the 40-byte Microsoft RSS key. For every input bit set, counting
// from the most significant bit of the first byte, it XORs in the 32 key
// bits that start at that bit position. Two pipeline stages: the addresses
// in the first, the ports in the second (the hash is linear), so a hash
// shows two cycles after its tuple.
//
// Bug switch: BUG_PORTSWAP takes the ports little-endian (bytes swapped),
// the classic host/network byte-order slip.
`timescale 1ns/1ns
module rss_toeplitz (
    input  wire        clk,
    input  wire        rst,
    input  wire        in_valid,
    input  wire [31:0] src,
    input  wire [31:0] dst,
    input  wire [15:0] sport,
    input  wire [15:0] dport,
    output reg         out_valid,
    output reg  [31:0] hash
);
    localparam [319:0] KEY = 320'h6d5a56da255b0ec24167253d43a38fb0d0ca2bcbae7b30b477cb2da38030f20c6a42b73bbeac01fa;

    // tz hashes a 96-bit input whose bit 95 is the first bit on the wire.
    function [31:0] tz(input [95:0] in);
        integer i;
        reg [31:0] h;
        begin
            h = 32'd0;
            for (i = 0; i < 96; i = i + 1)
                if (in[95-i]) h = h ^ KEY[319-i -: 32];
            tz = h;
        end
    endfunction

`ifdef BUG_PORTSWAP
    wire [31:0] ports = {sport[7:0], sport[15:8], dport[7:0], dport[15:8]};
`else
    wire [31:0] ports = {sport, dport};
`endif

    reg        v1;
    reg [31:0] h1;
    reg [31:0] p1;

    always @(posedge clk) begin
        if (rst) begin
            v1        <= 1'b0;
            h1        <= 32'd0;
            p1        <= 32'd0;
            out_valid <= 1'b0;
            hash      <= 32'd0;
        end else begin
            v1        <= in_valid;
            h1        <= tz({src, dst, 32'd0});
            p1        <= ports;
            out_valid <= v1;
            hash      <= h1 ^ tz({64'd0, p1});
        end
    end
endmodule
