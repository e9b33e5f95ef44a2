// Majority vote of 1001 one-bit inputs: whether at least 501 are set
// (a population count and a comparison).
module voter(input [1000:0] v, output maj);
  integer i;
  reg [9:0] n;
  always @* begin
    n = 10'd0;
    for (i = 0; i < 1001; i = i + 1) n = n + v[i];
  end
  assign maj = n >= 10'd501;
endmodule
