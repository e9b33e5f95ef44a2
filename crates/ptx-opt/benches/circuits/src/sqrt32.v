// Integer square root of a 32-bit unsigned value (restoring digit
// recurrence, 16 stages of subtract-and-select).
module sqrt32(input [31:0] x, output [15:0] root);
  reg [31:0] rem, r, b;
  integer i;
  always @* begin
    rem = x; r = 32'd0; b = 32'h40000000;
    for (i = 0; i < 16; i = i + 1) begin
      if (rem >= (r | b)) begin rem = rem - (r | b); r = (r >> 1) | b; end
      else r = r >> 1;
      b = b >> 2;
    end
  end
  assign root = r[15:0];
endmodule
