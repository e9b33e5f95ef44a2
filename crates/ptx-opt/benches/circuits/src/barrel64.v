// A 64-bit barrel shifter: rotate left/right and logical/arithmetic
// shifts by a 6-bit amount.
module barrel64(input [63:0] x, input [5:0] s, input [1:0] mode, output reg [63:0] y);
  always @* begin
    case (mode)
      2'd0: y = (x << s) | (x >> (7'd64 - s));
      2'd1: y = (x >> s) | (x << (7'd64 - s));
      2'd2: y = x << s;
      default: y = $signed(x) >>> s;
    endcase
  end
endmodule
