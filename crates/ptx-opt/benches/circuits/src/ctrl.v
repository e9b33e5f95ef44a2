// The next-state and output logic of a small bus controller: a 4-bit
// state, request, grant, error and timeout inputs, and one-hot command
// outputs.
module ctrl(input [3:0] state, input req, input ack, input err, input [1:0] kind,
            input timeout, input [2:0] burst, output reg [3:0] next, output reg [7:0] cmd,
            output reg busy);
  always @* begin
    next = state; cmd = 8'd0; busy = 1'b1;
    case (state)
      4'd0: begin busy = 1'b0; if (req) next = kind[1] ? 4'd4 : 4'd1; end
      4'd1: begin cmd[0] = 1'b1; if (ack) next = 4'd2; else if (timeout) next = 4'd9; end
      4'd2: begin cmd[1] = 1'b1; next = (burst == 3'd0) ? 4'd3 : 4'd6; end
      4'd3: begin cmd[2] = 1'b1; next = err ? 4'd9 : 4'd0; end
      4'd4: begin cmd[3] = 1'b1; if (ack) next = kind[0] ? 4'd5 : 4'd2; end
      4'd5: begin cmd[4] = 1'b1; if (err) next = 4'd9; else if (ack) next = 4'd6; end
      4'd6: begin cmd[5] = 1'b1; if (burst[2] & ack) next = 4'd7; else if (ack) next = 4'd3; end
      4'd7: begin cmd[5] = 1'b1; cmd[6] = 1'b1; if (timeout) next = 4'd9; else if (ack) next = 4'd8; end
      4'd8: begin cmd[6] = 1'b1; next = err ? 4'd9 : 4'd3; end
      4'd9: begin cmd[7] = 1'b1; busy = 1'b0; if (!req) next = 4'd0; end
      default: next = 4'd0;
    endcase
  end
endmodule
