import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids/generate";
import { raiseInformationRequest } from "@/lib/information-requests/information-requests";
import { bareTransferIn, platformWithKey, raisedRequest } from "@/lib/testing/factories";
import { call } from "@/lib/testing/http";
import { withScope } from "@/lib/tenancy";
import { GET } from "./route";

const list = (apiKey: string, id: string, headers?: Record<string, string>) =>
  call(GET, { apiKey, params: { id }, path: `/v1/transfers/${id}/information_requests`, headers });

describe("GET /v1/transfers/{id}/information_requests", () => {
  it("200: a plain array of the transfer's requests, oldest first, none of other transfers", async () => {
    const { apiKey, scope } = await platformWithKey();
    const transfer = await bareTransferIn(scope);
    const other = await bareTransferIn(scope);
    const first = await withScope(scope, () =>
      raiseInformationRequest({ kind: "due_diligence", transferId: transfer.id }),
    );
    const second = await withScope(scope, () =>
      raiseInformationRequest({ kind: "endorsement", transferId: transfer.id }),
    );
    await db().informationRequest.update({
      where: { id: first.id },
      data: { createdAt: new Date("2026-11-01T10:00:00Z") },
    });
    await db().informationRequest.update({
      where: { id: second.id },
      data: { createdAt: new Date("2026-11-02T10:00:00Z") },
    });
    await withScope(scope, () => raiseInformationRequest({ kind: "endorsement", transferId: other.id }));
    await withScope(scope, () => raiseInformationRequest({ kind: "endorsement" }));
    const response = await list(apiKey, transfer.id);
    expect(response.status).toBe(200);
    expect(Array.isArray(response.body)).toBe(true);
    expect(response.body.map((item) => item.id)).toEqual([first.id, second.id]);
    expect(response.body[0]).toEqual(
      raisedRequest({
        id: first.id,
        kind: "due_diligence",
        transferId: transfer.id,
        submissionId: null,
        createdAt: "2026-11-01T10:00:00.000Z",
      }),
    );
  });

  it("200 with an empty array for a transfer without requests", async () => {
    const { apiKey, scope } = await platformWithKey();
    const transfer = await bareTransferIn(scope);
    const response = await list(apiKey, transfer.id);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
  });

  it("200 for a sub-account's transfer with Service-Account-Id, 404 without it", async () => {
    const { apiKey, account } = await platformWithKey();
    const sub = await db().account.create({
      data: { id: newId("acct"), platformId: account.id, parentId: account.id, name: "Sub" },
    });
    const subScope = { platformId: account.id, accountId: sub.id };
    const transfer = await bareTransferIn(subScope);
    await withScope(subScope, () => raiseInformationRequest({ kind: "endorsement", transferId: transfer.id }));
    const acting = await list(apiKey, transfer.id, { "service-account-id": sub.id });
    expect(acting.status).toBe(200);
    expect(acting.body).toHaveLength(1);
    expect((await list(apiKey, transfer.id)).status).toBe(404);
  });

  it("404 for an unknown transfer, a malformed id, and another platform's transfer", async () => {
    const mine = await platformWithKey();
    const theirs = await platformWithKey();
    const transfer = await bareTransferIn(theirs.scope);
    await withScope(theirs.scope, () => raiseInformationRequest({ kind: "endorsement", transferId: transfer.id }));
    for (const id of ["tr_doesnotexist", "ir_abc", transfer.id]) {
      const response = await list(mine.apiKey, id);
      expect(response.status, id).toBe(404);
      expect(response.body.error_code).toBe("err_not_found");
    }
  });
});
