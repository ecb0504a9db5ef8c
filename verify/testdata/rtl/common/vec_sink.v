// vec_sink checks a block's outputs against the expected lines of
// `fabricmodel vectors` (expected.hex from the +exp=FILE plusarg, +nexp=N
// lines), in order: count is the number of outputs seen, errors the number
// that differed, done is set once all N arrived.
`timescale 1ns/1ns
module vec_sink #(
    parameter W = 32,
    parameter DEPTH = 8192
) (
    input  wire         clk,
    input  wire         rst,
    input  wire         valid,
    input  wire [W-1:0] data,
    output reg  [31:0]  count,
    output reg  [31:0]  errors,
    output wire         done
);
    reg [W-1:0] mem [0:DEPTH-1];
    reg [8*1024-1:0] path;
    integer n;

    initial begin
        n = 0;
        if ($value$plusargs("exp=%s", path)) $readmemh(path, mem);
        if (!$value$plusargs("nexp=%d", n)) n = 0;
    end

    assign done = (count >= n);

    always @(posedge clk) begin
        if (rst) begin
            count  <= 32'd0;
            errors <= 32'd0;
        end else if (valid) begin
            if (data !== mem[count]) errors <= errors + 32'd1;
            count <= count + 32'd1;
        end
    end
endmodule
