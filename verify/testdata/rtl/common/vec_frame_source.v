// vec_frame_source replays the frame lines of `fabricmodel vectors`
// ({tlast, tkeep[7:0], tdata[63:0]} per line, read with $readmemh from the
// +stim=FILE plusarg, +nstim=N lines) as a 64-bit AXI-Stream: one beat per
// cycle from the first cycle out of reset, one idle cycle after each frame.
`timescale 1ns/1ns
module vec_frame_source #(
    parameter DEPTH = 16384
) (
    input  wire        clk,
    input  wire        rst,
    output reg         tvalid,
    output reg  [63:0] tdata,
    output reg  [7:0]  tkeep,
    output reg         tlast,
    output wire        empty
);
    reg [72:0] mem [0:DEPTH-1];
    reg [8*1024-1:0] path;
    integer n;
    reg [31:0] idx;
    reg gap;

    initial begin
        n = 0;
        if ($value$plusargs("stim=%s", path)) $readmemh(path, mem);
        if (!$value$plusargs("nstim=%d", n)) n = 0;
    end

    assign empty = (idx >= n);

    always @(posedge clk) begin
        if (rst) begin
            idx    <= 32'd0;
            gap    <= 1'b0;
            tvalid <= 1'b0;
            tdata  <= 64'd0;
            tkeep  <= 8'd0;
            tlast  <= 1'b0;
        end else if (gap || idx >= n) begin
            gap    <= 1'b0;
            tvalid <= 1'b0;
            tlast  <= 1'b0;
        end else begin
            {tlast, tkeep, tdata} <= mem[idx];
            tvalid <= 1'b1;
            gap    <= mem[idx][72];
            idx    <= idx + 32'd1;
        end
    end
endmodule
