// rewrite_axis rewrites the frames it routes on a 64-bit AXI-Stream, as
// the switch model's rewrite does (switchasic.RewriteHeaders): the port's
// MAC (SRC_MAC) as the source, the next hop's (DST_MAC, when DST_KNOWN)
// as the destination, the IPv4 TTL or IPv6 hop limit one less and the
// IPv4 header checksum updated (RFC 1624: HC' = ~(~HC + 0xFEFF)); a frame
// that came with a TTL of 1 or 0 is dropped. An 802.1Q tag moves the IP
// header by four bytes. Frames are at least five beats.
//
// The beats pass through a five-stage delay line, so that when a frame's
// first beat leaves, its beats 1 to 3, which hold the EtherTypes, the TTL
// and the checksum, have been read; the output is registered after it.
//
// `define BUG_TAG reads a tagged frame's TPID as its EtherType: the tag's
// frames keep their TTL and checksum.
`timescale 1ns/1ns
module rewrite_axis #(
    parameter [47:0] SRC_MAC   = 48'h02FF00000003,
    parameter [47:0] DST_MAC   = 48'h020000000005,
    parameter        DST_KNOWN = 1'b1
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        s_tvalid,
    output wire        s_tready,
    input  wire [63:0] s_tdata,
    input  wire [7:0]  s_tkeep,
    input  wire        s_tlast,
    output reg         m_tvalid,
    output reg  [63:0] m_tdata,
    output reg  [7:0]  m_tkeep,
    output reg         m_tlast
);
    assign s_tready = 1'b1;

    // the delay line: beat, its index in its frame (saturating at 15)
    reg        v [0:4];
    reg        l [0:4];
    reg [7:0]  k [0:4];
    reg [63:0] d [0:4];
    reg [3:0]  x [0:4];
    reg [3:0]  in_idx;

    // what the frame arriving says (read from its beats 1 to 3)
    reg        tagged, v4, v6;
    reg [7:0]  ttl;
    reg [15:0] cks;
    // the same for the frame leaving, taken as its first beat enters the
    // last stage
    reg        o_tagged, o_v4, o_v6, o_drop;
    reg [7:0]  o_ttl;
    reg [15:0] o_cks;

    // byte i of a beat
    function [7:0] byte_of;
        input [63:0] w;
        input integer i;
        begin
            byte_of = w[8*i +: 8];
        end
    endfunction

    wire [15:0] et1 = {byte_of(s_tdata, 4), byte_of(s_tdata, 5)};
    wire [15:0] et2 = {byte_of(s_tdata, 0), byte_of(s_tdata, 1)};
`ifdef BUG_TAG
    wire        is_tag = 1'b0;
`else
    wire        is_tag = (et1 == 16'h8100);
`endif

    integer i;
    always @(posedge clk) begin
        if (rst) begin
            for (i = 0; i < 5; i = i + 1) begin
                v[i] <= 1'b0; l[i] <= 1'b0; k[i] <= 8'd0; d[i] <= 64'd0; x[i] <= 4'd0;
            end
            in_idx <= 4'd0;
            tagged <= 1'b0; v4 <= 1'b0; v6 <= 1'b0; ttl <= 8'd0; cks <= 16'd0;
        end else begin
            v[0] <= s_tvalid; l[0] <= s_tlast; k[0] <= s_tkeep; d[0] <= s_tdata; x[0] <= in_idx;
            for (i = 1; i < 5; i = i + 1) begin
                v[i] <= v[i-1]; l[i] <= l[i-1]; k[i] <= k[i-1]; d[i] <= d[i-1]; x[i] <= x[i-1];
            end
            if (s_tvalid) begin
                if (s_tlast) in_idx <= 4'd0;
                else if (in_idx != 4'd15) in_idx <= in_idx + 4'd1;
                case (in_idx)
                4'd1: begin
                    tagged <= is_tag;
                    v4 <= !is_tag && et1 == 16'h0800;
                    v6 <= !is_tag && et1 == 16'h86DD;
                end
                4'd2: begin
                    if (tagged) begin
                        v4 <= et2 == 16'h0800;
                        v6 <= et2 == 16'h86DD;
                    end else if (v4) begin
                        ttl <= byte_of(s_tdata, 6);
                    end else if (v6) begin
                        ttl <= byte_of(s_tdata, 5);
                    end
                end
                4'd3: begin
                    if (!tagged && v4) begin
                        cks <= {byte_of(s_tdata, 0), byte_of(s_tdata, 1)};
                    end else if (tagged && v4) begin
                        ttl <= byte_of(s_tdata, 2);
                        cks <= {byte_of(s_tdata, 4), byte_of(s_tdata, 5)};
                    end else if (tagged && v6) begin
                        ttl <= byte_of(s_tdata, 1);
                    end
                end
                default: ;
                endcase
            end
        end
    end

    // the frame leaving: latched as its first beat enters the last stage
    always @(posedge clk) begin
        if (rst) begin
            o_tagged <= 1'b0; o_v4 <= 1'b0; o_v6 <= 1'b0; o_drop <= 1'b0; o_ttl <= 8'd0; o_cks <= 16'd0;
        end else if (v[3] && x[3] == 4'd0) begin
            o_tagged <= tagged; o_v4 <= v4; o_v6 <= v6; o_ttl <= ttl; o_cks <= cks;
            o_drop <= (v4 || v6) && ttl <= 8'd1;
        end
    end

    // RFC 1624 equation 3 for the TTL's word: ~(~HC + 0xFEFF), one carry
    wire [16:0] csum = {1'b0, ~o_cks} + 17'h0FEFF;
    wire [15:0] new_cks = ~(csum[15:0] + {15'd0, csum[16]});
    wire [7:0]  new_ttl = o_ttl - 8'd1;

    reg [63:0] w;
    always @(*) begin
        w = d[4];
        if (x[4] == 4'd0) begin
            if (DST_KNOWN) begin
                w[7:0]   = DST_MAC[47:40]; w[15:8]  = DST_MAC[39:32]; w[23:16] = DST_MAC[31:24];
                w[31:24] = DST_MAC[23:16]; w[39:32] = DST_MAC[15:8];  w[47:40] = DST_MAC[7:0];
            end
            w[55:48] = SRC_MAC[47:40]; w[63:56] = SRC_MAC[39:32];
        end
        if (x[4] == 4'd1) begin
            w[7:0] = SRC_MAC[31:24]; w[15:8] = SRC_MAC[23:16]; w[23:16] = SRC_MAC[15:8]; w[31:24] = SRC_MAC[7:0];
        end
        if (!o_tagged && o_v4 && x[4] == 4'd2) w[55:48] = new_ttl;
        if (!o_tagged && o_v4 && x[4] == 4'd3) begin w[7:0] = new_cks[15:8]; w[15:8] = new_cks[7:0]; end
        if (!o_tagged && o_v6 && x[4] == 4'd2) w[47:40] = new_ttl;
        if (o_tagged && o_v4 && x[4] == 4'd3) begin
            w[23:16] = new_ttl; w[39:32] = new_cks[15:8]; w[47:40] = new_cks[7:0];
        end
        if (o_tagged && o_v6 && x[4] == 4'd3) w[15:8] = new_ttl;
    end

    always @(posedge clk) begin
        if (rst) begin
            m_tvalid <= 1'b0; m_tdata <= 64'd0; m_tkeep <= 8'd0; m_tlast <= 1'b0;
        end else begin
            m_tvalid <= v[4] && !o_drop;
            m_tdata  <= w;
            m_tkeep  <= k[4];
            m_tlast  <= l[4];
        end
    end
endmodule
