// Signed 32-bit integer to IEEE binary32, round to nearest even.
module int2float(input [31:0] x, output [31:0] f);
  wire sign = x[31];
  wire [31:0] mag = sign ? -x : x;
  reg [4:0] lz;
  integer i;
  always @* begin
    lz = 5'd0;
    for (i = 0; i < 32; i = i + 1)
      if (mag[i]) lz = 5'd31 - i[4:0];
  end
  wire [31:0] norm = mag << lz;            // leading one at bit 31
  wire [23:0] keep = norm[31:8];           // 1.mantissa
  wire guard = norm[7];
  wire sticky = |norm[6:0];
  wire up = guard & (sticky | keep[0]);
  wire [24:0] rounded = {1'b0, keep} + up;
  wire carry = rounded[24];
  wire [7:0] exp = 8'd158 - lz + carry;    // 127 + 31 - lz
  wire [22:0] man = carry ? rounded[23:1] : rounded[22:0];
  assign f = (mag == 32'd0) ? 32'd0 : {sign, exp, man};
endmodule
