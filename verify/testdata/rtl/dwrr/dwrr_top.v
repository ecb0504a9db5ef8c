// dwrr_top replays {op, queue, bytes} vectors into dwrr_sched (one idle
// cycle after every four) and checks each grant {queue, bytes} in order.
`timescale 1ns/1ns
module dwrr_top (
    input  wire        clk,
    input  wire        rst,
    output wire        done,
    output wire [31:0] count,
    output wire [31:0] errors
);
    wire        in_valid;
    wire [19:0] in_data;  // {op, queue[2:0], bytes}; four queues use queue[1:0]
    wire        empty;
    wire        out_valid;
    wire [3:0]  grant;
    wire [15:0] grant_bytes;

    vec_source #(.W(20)) src (.clk(clk), .rst(rst), .valid(in_valid), .data(in_data), .empty(empty));

    dwrr_sched dut (
        .clk(clk), .rst(rst), .in_valid(in_valid),
        .op(in_data[19]), .q_in(in_data[17:16]), .bytes(in_data[15:0]),
        .out_valid(out_valid), .grant(grant), .grant_bytes(grant_bytes)
    );

    vec_sink #(.W(20)) sink (
        .clk(clk), .rst(rst), .valid(out_valid), .data({grant, grant_bytes}),
        .count(count), .errors(errors), .done(done)
    );
endmodule
