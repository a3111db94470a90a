import { describe, expect, it } from "vitest";
import { withAccount } from "@/lib/client/current-account";
import { queryKey } from "@/lib/client/query-keys";
import { listInformationRequestsEndpoint } from "@/lib/information-requests/endpoints";

describe("withAccount", () => {
  it("adds the account to an address of this site, keeping its query and fragment", () => {
    expect(withAccount("/kyc", "acct_1")).toBe("/kyc?account=acct_1");
    expect(withAccount("/transactions?virtualAccountId=va_1", "acct_1")).toBe(
      "/transactions?virtualAccountId=va_1&account=acct_1",
    );
    expect(withAccount("/virtual-accounts#va_1", "acct_1")).toBe("/virtual-accounts?account=acct_1#va_1");
  });

  it("leaves the address alone for the own account, another site, or one that names an account already", () => {
    expect(withAccount("/kyc", null)).toBe("/kyc");
    expect(withAccount("https://example.com/kyc", "acct_1")).toBe("https://example.com/kyc");
    expect(withAccount("//example.com/kyc", "acct_1")).toBe("//example.com/kyc");
    expect(withAccount("#main", "acct_1")).toBe("#main");
    expect(withAccount("/kyc?account=acct_2", "acct_1")).toBe("/kyc?account=acct_2");
  });
});

describe("queryKey with an account", () => {
  it("ends with the account, so each account is cached apart; without one the key is as before", () => {
    expect(queryKey(listInformationRequestsEndpoint, { query: { status: "on_review" }, accountId: "acct_1" })).toEqual([
      "v1",
      "information_requests",
      { status: "on_review" },
      { account: "acct_1" },
    ]);
    expect(queryKey(listInformationRequestsEndpoint, { accountId: "acct_1" })).toEqual([
      "v1",
      "information_requests",
      { account: "acct_1" },
    ]);
    expect(queryKey(listInformationRequestsEndpoint, { accountId: null })).toEqual(["v1", "information_requests"]);
  });
});
