// vec_source replays the stimulus lines of `fabricmodel vectors`
// (stimulus.hex, read with $readmemh from the +stim=FILE plusarg, +nstim=N
// lines) as single-beat transactions: one line per cycle, with one idle
// cycle after every GAP lines, from the first cycle out of reset.
`timescale 1ns/1ns
module vec_source #(
    parameter W = 32,
    parameter DEPTH = 8192,
    parameter GAP = 4
) (
    input  wire         clk,
    input  wire         rst,
    output reg          valid,
    output reg  [W-1:0] data,
    output wire         empty
);
    reg [W-1:0] mem [0:DEPTH-1];
    reg [8*1024-1:0] path;
    integer n;
    reg [31:0] idx;
    reg [7:0] ph;

    initial begin
        n = 0;
        if ($value$plusargs("stim=%s", path)) $readmemh(path, mem);
        if (!$value$plusargs("nstim=%d", n)) n = 0;
    end

    assign empty = (idx >= n);

    always @(posedge clk) begin
        if (rst) begin
            idx   <= 32'd0;
            ph    <= 8'd0;
            valid <= 1'b0;
            data  <= {W{1'b0}};
        end else if (ph == GAP || idx >= n) begin
            ph    <= 8'd0;
            valid <= 1'b0;
        end else begin
            data  <= mem[idx];
            valid <= 1'b1;
            idx   <= idx + 32'd1;
            ph    <= ph + 8'd1;
        end
    end
endmodule
