import type { ResolverOptions } from "react-hook-form";
import { describe, expect, it } from "vitest";
import {
  expiryBounds,
  formPath,
  issueBody,
  issueKeyResolver,
  rollBody,
  rollKeyResolver,
  type KeyFormValues,
  type RollFormValues,
} from "@/components/api-keys/key-form";
import { expiryProblem } from "@/lib/api-keys/schemas";

const midnight = (day: string) => new Date(`${day}T00:00:00.000Z`);
const nextDay = (day: string) => new Date(midnight(day).getTime() + 86_400_000).toISOString().slice(0, 10);

describe("expiryBounds", () => {
  // Start and end of UTC days, a leap day and the turn of a year: the picker's first and last
  // days must always be accepted by the API, and the day after the last refused.
  const moments = [
    "2026-11-22T00:00:00.000Z",
    "2026-11-22T23:59:59.999Z",
    "2027-12-31T23:30:00.000Z",
    "2028-02-29T12:00:00.000Z",
    "2028-02-28T00:00:01.000Z",
    "2027-03-01T05:00:00.000Z",
  ].map((text) => new Date(text));

  it.each(moments)("offers only days the API accepts at %s", (now) => {
    const { min, max, suggested } = expiryBounds(now);
    expect(expiryProblem(midnight(min), now)).toBeNull();
    expect(expiryProblem(midnight(max), now)).toBeNull();
    expect(expiryProblem(midnight(suggested), now)).toBeNull();
    expect(expiryProblem(midnight(nextDay(max)), now)).toBe("must be at most one year from now");
    expect(expiryProblem(midnight(now.toISOString().slice(0, 10)), now)).toBe("must be in the future");
  });
});

describe("formPath", () => {
  it("maps the API's detail paths to the form's fields", () => {
    expect(formPath("cidrAllowlist.1")).toBe("cidrAllowlist.1.value");
    expect(formPath(["cidrAllowlist", 0])).toBe("cidrAllowlist.0.value");
    expect(formPath("cidrAllowlist")).toBe("cidrAllowlist.root");
    expect(formPath("expiresAt")).toBe("expiresOn");
    expect(formPath("name")).toBe("name");
    expect(formPath("permissions.3")).toBe("permissions");
    expect(formPath("overlapSeconds")).toBe("overlapSeconds");
  });
});

describe("issueKeyResolver", () => {
  const options = { fields: {}, shouldUseNativeValidation: false } as ResolverOptions<KeyFormValues>;
  const valid: KeyFormValues = {
    name: "",
    expiresOn: expiryBounds().suggested,
    cidrAllowlist: [{ value: "203.0.113.0/24" }],
    permissions: ["transactions:read"],
    rateLimit: { requests: "", perSeconds: "" },
    code: "123456",
  };

  it("accepts a complete form", async () => {
    expect((await issueKeyResolver(valid, undefined, options)).errors).toEqual({});
  });

  it("puts each problem under its field, with the API's wording", async () => {
    const { errors } = await issueKeyResolver(
      {
        name: "  ",
        expiresOn: "2020-01-01",
        cidrAllowlist: [{ value: "10.0.0.0/8" }, { value: "10.0.0.1/8" }],
        permissions: [],
        rateLimit: { requests: "", perSeconds: "" },
        code: "12",
      },
      undefined,
      options,
    );
    expect(errors.expiresOn?.message).toBe("must be in the future");
    expect(errors.cidrAllowlist?.[0]).toBeUndefined();
    expect(errors.cidrAllowlist?.[1]?.value?.message).toBe('"10.0.0.1/8" has host bits set; did you mean 10.0.0.0/8?');
    expect(errors.code?.message).toBe("must be the 6-digit code from your authenticator app");
    // A blank name is no name: the key is simply unnamed.
    expect(errors.name).toBeUndefined();
  });

  it("leaves a blank limit out and checks a typed one with the API's schema, under each box", async () => {
    expect(issueBody(valid).rateLimit).toBeUndefined();
    expect(issueBody({ ...valid, rateLimit: { requests: " 50 ", perSeconds: "10" } }).rateLimit).toEqual({
      requests: 50,
      perSeconds: 10,
    });
    const { errors } = await issueKeyResolver(
      { ...valid, rateLimit: { requests: "0", perSeconds: "" } },
      undefined,
      options,
    );
    expect(errors.rateLimit?.requests?.message).toBe("must be at least 1 (1..100000)");
    expect(errors.rateLimit?.perSeconds?.message).toBe("must be a whole number of seconds (1..3600)");
  });

  it("asks for a date when the picker is empty", async () => {
    const { errors } = await issueKeyResolver({ ...valid, expiresOn: "" }, undefined, options);
    expect(errors.expiresOn?.message).toBe("choose the day the key stops working");
  });
});

describe("issueBody", () => {
  it("always names the permissions, so the key gets exactly what was checked", () => {
    const values: KeyFormValues = {
      name: "",
      expiresOn: "2027-01-31",
      cidrAllowlist: [],
      permissions: [],
      rateLimit: { requests: "", perSeconds: "" },
      code: "123456",
    };
    expect(issueBody(values)).toEqual({
      name: undefined,
      expiresAt: "2027-01-31T00:00:00.000Z",
      cidrAllowlist: [],
      permissions: [],
    });
    expect(issueBody({ ...values, permissions: ["kyc:read"] }).permissions).toEqual(["kyc:read"]);
  });

  it("refuses a permission no key may hold, under the checklist", async () => {
    const options = { fields: {}, shouldUseNativeValidation: false } as ResolverOptions<KeyFormValues>;
    const values: KeyFormValues = {
      name: "",
      expiresOn: expiryBounds().suggested,
      cidrAllowlist: [],
      permissions: ["kyc:read", "roles"],
      rateLimit: { requests: "", perSeconds: "" },
      code: "123456",
    };
    const { errors } = await issueKeyResolver(values, undefined, options);
    expect(errors.permissions?.message).toBe('"roles" cannot be held by an API key');
  });
});

describe("rollKeyResolver", () => {
  const options = { fields: {}, shouldUseNativeValidation: false } as ResolverOptions<RollFormValues>;
  const valid: RollFormValues = { expiresOn: expiryBounds().suggested, overlapSeconds: "3600", code: "123456" };

  it("sends the overlap in seconds", () => {
    expect(rollBody({ ...valid, expiresOn: "2027-01-31" })).toEqual({
      expiresAt: "2027-01-31T00:00:00.000Z",
      overlapSeconds: 3600,
    });
    expect(rollBody({ ...valid, overlapSeconds: "0" }).overlapSeconds).toBe(0);
  });

  it("accepts each offered overlap and refuses what the API would", async () => {
    for (const overlapSeconds of ["0", "3600", "86400"])
      expect((await rollKeyResolver({ ...valid, overlapSeconds }, undefined, options)).errors).toEqual({});
    const { errors } = await rollKeyResolver({ expiresOn: "", overlapSeconds: "90000", code: "" }, undefined, options);
    expect(errors.expiresOn?.message).toBe("choose the day the key stops working");
    expect(errors.overlapSeconds?.message).toBe("must be between 0 and 86400");
    expect(errors.code?.message).toBe("must be the 6-digit code from your authenticator app");
  });
});
