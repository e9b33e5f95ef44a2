// A 32-bit ALU: add, sub, and, or, xor, set-less-than (signed and
// unsigned), shifts by a 5-bit amount, selected by a 4-bit opcode.
module alu32(input [31:0] a, input [31:0] b, input [3:0] op, output reg [31:0] y, output zero);
  always @* begin
    case (op)
      4'd0: y = a + b;
      4'd1: y = a - b;
      4'd2: y = a & b;
      4'd3: y = a | b;
      4'd4: y = a ^ b;
      4'd5: y = {31'b0, $signed(a) < $signed(b)};
      4'd6: y = {31'b0, a < b};
      4'd7: y = a << b[4:0];
      4'd8: y = a >> b[4:0];
      4'd9: y = $signed(a) >>> b[4:0];
      4'd10: y = ~(a | b);
      default: y = a;
    endcase
  end
  assign zero = (y == 32'b0);
endmodule
