// icrc_axis computes the RoCEv2 invariant CRC of each packet on a 64-bit
// AXI-Stream (lane j in tdata[8j+7:8j], kept when tkeep[j] is set). A
// packet runs from the first byte of an IPv4 header without options (IHL
// 5) to the last payload byte. The CRC is the reflected CRC-32 started from
// 0xDEBB20E3 (the register after eight 0xFF bytes standing in for the IB
// LRH) with the variant fields read as all ones: IPv4 TOS (byte 1), TTL
// (8) and header checksum (10, 11), the UDP checksum (26, 27) and the BTH
// byte holding FECN, BECN and the reserved bits (32); the result is the
// register inverted. Registered on the last beat: one cycle of latency.
//
// Bug switch: BUG_TTL leaves the TTL unmasked, so a packet whose TTL is
// not 0xFF gets a wrong ICRC (a router decrementing the TTL breaks it).
`timescale 1ns/1ns
module icrc_axis (
    input  wire        clk,
    input  wire        rst,
    input  wire        s_tvalid,
    output wire        s_tready,
    input  wire [63:0] s_tdata,
    input  wire [7:0]  s_tkeep,
    input  wire        s_tlast,
    output reg         icrc_valid,
    output reg  [31:0] icrc
);
    localparam [31:0] SEED = 32'hDEBB20E3;
    assign s_tready = 1'b1;

    reg [31:0] crc;
    reg [31:0] nxt;
    reg [15:0] pos;  // byte offset of lane 0 in the packet
    reg [15:0] idx;
    reg [7:0]  b;
    integer j;

    function [31:0] crc_byte(input [31:0] c, input [7:0] d);
        integer i;
        reg [31:0] r;
        begin
            r = c ^ {24'd0, d};
            for (i = 0; i < 8; i = i + 1)
                r = r[0] ? ((r >> 1) ^ 32'hEDB88320) : (r >> 1);
            crc_byte = r;
        end
    endfunction

    function masked(input [15:0] k);
        begin
`ifdef BUG_TTL
            masked = (k == 1) || (k == 10) || (k == 11) || (k == 26) || (k == 27) || (k == 32);
`else
            masked = (k == 1) || (k == 8) || (k == 10) || (k == 11) || (k == 26) || (k == 27) || (k == 32);
`endif
        end
    endfunction

    always @* begin
        nxt = crc;
        for (j = 0; j < 8; j = j + 1) begin
            idx = pos + j[15:0];
            b = masked(idx) ? 8'hFF : s_tdata[8*j +: 8];
            if (s_tkeep[j]) nxt = crc_byte(nxt, b);
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            crc        <= SEED;
            pos        <= 16'd0;
            icrc_valid <= 1'b0;
            icrc       <= 32'd0;
        end else begin
            icrc_valid <= 1'b0;
            if (s_tvalid && s_tready) begin
                if (s_tlast) begin
                    icrc       <= ~nxt;
                    icrc_valid <= 1'b1;
                    crc        <= SEED;
                    pos        <= 16'd0;
                end else begin
                    crc <= nxt;
                    pos <= pos + 16'd8;
                end
            end
        end
    end
endmodule
