// fcs_axis computes the Ethernet FCS (CRC-32, reflected polynomial
// 0xEDB88320, initial value and final XOR 0xFFFFFFFF) of each frame on a
// 64-bit AXI-Stream input: lane j of tdata is tdata[8j+7:8j], counted when
// tkeep[j] is set. The FCS of a frame is registered on its tlast beat and
// shows one cycle later, with fcs_valid for one cycle. Always ready.
//
// Bug switch: BUG_TKEEP counts every lane of the last beat, as if tkeep
// were all ones there (a frame whose length is not a multiple of 8 gets a
// wrong FCS).
`timescale 1ns/1ns
module fcs_axis (
    input  wire        clk,
    input  wire        rst,
    input  wire        s_tvalid,
    output wire        s_tready,
    input  wire [63:0] s_tdata,
    input  wire [7:0]  s_tkeep,
    input  wire        s_tlast,
    output reg         fcs_valid,
    output reg  [31:0] fcs
);
    assign s_tready = 1'b1;

    reg [31:0] crc;
    reg [31:0] nxt;
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

    always @* begin
        nxt = crc;
        for (j = 0; j < 8; j = j + 1)
`ifdef BUG_TKEEP
            if (s_tkeep[j] || s_tlast)
`else
            if (s_tkeep[j])
`endif
                nxt = crc_byte(nxt, s_tdata[8*j +: 8]);
    end

    always @(posedge clk) begin
        if (rst) begin
            crc       <= 32'hFFFFFFFF;
            fcs_valid <= 1'b0;
            fcs       <= 32'd0;
        end else begin
            fcs_valid <= 1'b0;
            if (s_tvalid && s_tready) begin
                if (s_tlast) begin
                    fcs       <= ~nxt;
                    fcs_valid <= 1'b1;
                    crc       <= 32'hFFFFFFFF;
                end else begin
                    crc <= nxt;
                end
            end
        end
    end
endmodule
