import { describe, expect, it } from "vitest";
import { canonicalJson } from "@/lib/audit/seal/format";
import { leafHash, merkleRoot, nodeHash } from "@/lib/audit/seal/merkle";

// The two formats the seal rests on, against their RFCs' own published vectors: a verifier written
// in any other language from the RFCs alone computes the same bytes.

describe("merkleRoot (RFC 6962, the certificate-transparency test vectors)", () => {
  const inputs = ["", "00", "10", "2021", "3031", "40414243", "5051525354555657", "606162636465666768696a6b6c6d6e6f"];
  // The roots of the trees over the first 1..8 inputs (certificate-transparency's merkle tree tests).
  const roots = [
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
  ];
  const leaves = inputs.map((input) => leafHash(Buffer.from(input, "hex")));

  it("gives the published root for every size from 1 to 8", () => {
    for (let size = 1; size <= 8; size++)
      expect(merkleRoot(leaves.slice(0, size)).toString("hex"), `size ${size}`).toBe(roots[size - 1]);
  });

  it("the empty tree's root is SHA-256 of nothing", () => {
    expect(merkleRoot([]).toString("hex")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });

  it("splits at the largest power of two below n (RFC 6962 2.1), not by duplicating the odd leaf", () => {
    const [a, b, c, d, e] = leaves as [Buffer, Buffer, Buffer, Buffer, Buffer];
    expect(merkleRoot([a, b, c, d, e])).toEqual(nodeHash(nodeHash(nodeHash(a, b), nodeHash(c, d)), e));
    expect(merkleRoot([a, b, c])).not.toEqual(merkleRoot([a, b, c, c]));
  });
});

describe("canonicalJson (RFC 8785)", () => {
  it("writes section 3.2.2's example as section 3.2.3 gives it", () => {
    // The RFC's input, as text: its escapes and number forms are parsed, then written canonically.
    const input = String.raw`{
      "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
      "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
      "literals": [null, true, false]
    }`;
    expect(canonicalJson(JSON.parse(input))).toBe(
      String.raw`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`,
    );
  });

  it("serialises numbers as Appendix B's samples give them (IEEE 754 bits -> text)", () => {
    const samples: [string, string][] = [
      ["0000000000000000", "0"],
      ["8000000000000000", "0"],
      ["0000000000000001", "5e-324"],
      ["8000000000000001", "-5e-324"],
      ["7fefffffffffffff", "1.7976931348623157e+308"],
      ["ffefffffffffffff", "-1.7976931348623157e+308"],
      ["4340000000000000", "9007199254740992"],
      ["c340000000000000", "-9007199254740992"],
      ["4430000000000000", "295147905179352830000"],
      ["44b52d02c7e14af5", "9.999999999999997e+22"],
      ["44b52d02c7e14af6", "1e+23"],
      ["44b52d02c7e14af7", "1.0000000000000001e+23"],
      ["444b1ae4d6e2ef4e", "999999999999999700000"],
      ["444b1ae4d6e2ef4f", "999999999999999900000"],
      ["444b1ae4d6e2ef50", "1e+21"],
      ["3eb0c6f7a0b5ed8c", "9.999999999999997e-7"],
      ["3eb0c6f7a0b5ed8d", "0.000001"],
      ["41b3de4355555553", "333333333.3333332"],
      ["41b3de4355555554", "333333333.33333325"],
      ["41b3de4355555555", "333333333.3333333"],
      ["41b3de4355555556", "333333333.3333334"],
      ["41b3de4355555557", "333333333.33333343"],
      ["becbf647612f3696", "-0.0000033333333333333333"],
      ["43143ff3c1cb0959", "1424953923781206.2"],
    ];
    for (const [bits, text] of samples)
      expect(canonicalJson([Buffer.from(bits, "hex").readDoubleBE(0)]), bits).toBe(`[${text}]`);
  });

  it("sorts properties by their UTF-16 code units, recursively (section 3.2.3's sorting example)", () => {
    const input = {
      "\u20ac": "Euro Sign",
      "\r": "Carriage Return",
      "\ufb33": "Hebrew Letter Dalet With Dagesh",
      "1": "One",
      "\ud83d\ude00": "Emoji: Grinning Face",
      "\u0080": "Control",
      "\u00f6": { z: 1, a: [{ b: 2, a: 1 }] },
    };
    expect(canonicalJson(input)).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","ö":{"a":[{"a":1,"b":2}],"z":1},"€":"Euro Sign",' +
        '"\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
  });

  it("refuses what has no JSON form", () => {
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
  });
});
