// CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320) of a 64-bit data
// word folded into a running 32-bit CRC: the parallel form of 64 serial
// steps, pure xor logic.
module crc32x64(input [31:0] crc, input [63:0] data, output [31:0] next);
  function [31:0] step(input [31:0] c, input d);
    step = (c >> 1) ^ ((c[0] ^ d) ? 32'hEDB88320 : 32'h0);
  endfunction
  reg [31:0] c;
  integer i;
  always @* begin
    c = crc;
    for (i = 0; i < 64; i = i + 1) c = step(c, data[i]);
  end
  assign next = c;
endmodule
