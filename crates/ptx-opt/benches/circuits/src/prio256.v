// A 256-input priority encoder: the index of the lowest set request, and
// whether any is set.
module prio256(input [255:0] req, output reg [7:0] idx, output valid);
  integer i;
  always @* begin
    idx = 8'd0;
    for (i = 255; i >= 0; i = i - 1)
      if (req[i]) idx = i[7:0];
  end
  assign valid = |req;
endmodule
