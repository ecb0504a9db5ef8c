// dwrr_sched is a deficit weighted round robin scheduler over four queues
// (Shreedhar and Varghese): eligible queues form a round, kept as an
// ordered list; the queue at the front gets its quantum once per visit and
// sends while its head packet fits in its deficit, then goes to the back.
// A queue that empties leaves the round and its deficit returns to zero.
// Each queue holds packets of the size last set for it (0: empty).
//
// One operation per valid cycle: op 0 sets the packet size of a queue
// (bytes, 0 for empty); op 1 dequeues one packet and, one cycle later,
// grants the queue that sent and its bytes (queue 15 when none can). The
// RTL resolves a dequeue in at most two visits, which holds when no packet
// is larger than the smallest quantum (the condition of the paper).
//
// Bug switch: BUG_DEFICIT keeps the deficit of a queue that leaves the
// round, so it comes back with banked credit and overstays its turn.
`timescale 1ns/1ns
module dwrr_sched #(
    parameter [15:0] Q0 = 16'd1500,
    parameter [15:0] Q1 = 16'd3000,
    parameter [15:0] Q2 = 16'd4500,
    parameter [15:0] Q3 = 16'd6000
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        in_valid,
    input  wire        op,
    input  wire [1:0]  q_in,
    input  wire [15:0] bytes,
    output reg         out_valid,
    output reg  [3:0]  grant,
    output reg  [15:0] grant_bytes
);
    reg [15:0] head    [0:3];
    reg [17:0] deficit [0:3];
    reg [3:0]  fresh;
    reg [3:0]  inround;
    reg [1:0]  order   [0:3];
    reg [2:0]  count;

    function [17:0] quantum(input [1:0] q);
        begin
            case (q)
                2'd0: quantum = {2'b00, Q0};
                2'd1: quantum = {2'b00, Q1};
                2'd2: quantum = {2'b00, Q2};
                default: quantum = {2'b00, Q3};
            endcase
        end
    endfunction

    // Next-state arithmetic, from the state and the operation.
    reg [1:0]  f, s, last, pos;
    reg [17:0] d0, d1s, d1f;
    reg        fits;
    reg [1:0]  ord_rot [0:3];  // front moved to the back
    reg [1:0]  ord_rem [0:3];  // q_in taken out
    integer i;

    always @* begin
        f    = order[0];
        s    = order[1];
        d0   = fresh[f] ? deficit[f] : deficit[f] + quantum(f);
        d1s  = deficit[s] + quantum(s);
        d1f  = d0 + quantum(f);
        fits = {2'b00, head[f]} <= d0;
        last = count[1:0] - 2'd1;  // count 1..4: the index of the back
        pos  = 2'd0;
        for (i = 0; i < 4; i = i + 1)
            if ({1'b0, i[1:0]} < count && order[i] == q_in) pos = i[1:0];
        for (i = 0; i < 3; i = i + 1) begin
            ord_rot[i] = (i[1:0] < last) ? order[i+1] : ((i[1:0] == last) ? f : order[i]);
            ord_rem[i] = (i[1:0] >= pos && i[1:0] < last) ? order[i+1] : order[i];
        end
        ord_rot[3] = (last == 2'd3) ? f : order[3];
        ord_rem[3] = order[3];
    end

    always @(posedge clk) begin
        if (rst) begin
            for (i = 0; i < 4; i = i + 1) begin
                head[i]    <= 16'd0;
                deficit[i] <= 18'd0;
                order[i]   <= 2'd0;
            end
            fresh       <= 4'd0;
            inround     <= 4'd0;
            count       <= 3'd0;
            out_valid   <= 1'b0;
            grant       <= 4'd0;
            grant_bytes <= 16'd0;
        end else begin
            out_valid <= in_valid && op;
            if (in_valid && op) begin
                if (count == 3'd0) begin
                    grant       <= 4'hf;
                    grant_bytes <= 16'd0;
                end else if (fits) begin
                    grant       <= {2'b00, f};
                    grant_bytes <= head[f];
                    deficit[f]  <= d0 - {2'b00, head[f]};
                    fresh[f]    <= 1'b1;
                end else if (count > 3'd1) begin
                    // The front spent its quantum: to the back; the next
                    // queue gets its quantum and sends.
                    grant       <= {2'b00, s};
                    grant_bytes <= head[s];
                    deficit[s]  <= d1s - {2'b00, head[s]};
                    fresh[f]    <= 1'b0;
                    fresh[s]    <= 1'b1;
                    for (i = 0; i < 4; i = i + 1) order[i] <= ord_rot[i];
                end else begin
                    // Alone in the round: a new visit, a new quantum.
                    grant       <= {2'b00, f};
                    grant_bytes <= head[f];
                    deficit[f]  <= d1f - {2'b00, head[f]};
                    fresh[f]    <= 1'b1;
                end
            end else if (in_valid) begin
                head[q_in] <= bytes;
                if (bytes != 16'd0 && !inround[q_in]) begin
                    order[count[1:0]] <= q_in;
                    count         <= count + 3'd1;
                    inround[q_in] <= 1'b1;
                end else if (bytes == 16'd0 && inround[q_in]) begin
                    for (i = 0; i < 4; i = i + 1) order[i] <= ord_rem[i];
                    count         <= count - 3'd1;
                    inround[q_in] <= 1'b0;
                    fresh[q_in]   <= 1'b0;
`ifndef BUG_DEFICIT
                    deficit[q_in] <= 18'd0;
`endif
                end
            end
        end
    end
endmodule
