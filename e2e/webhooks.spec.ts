import { verify } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { APIRequestContext, Page, TestInfo } from "@playwright/test";
import { EVENT_TYPE_READ_PERMISSIONS, ROLE_PERMISSIONS } from "../lib/auth/permissions";
import { EVENT_TYPE_NAMES } from "../lib/webhooks/event-types";
import { EMPLOYEE_PASSWORD, enrolTotp, expect, setRole, snap, test, type Server } from "./fixtures";

type Received = { headers: http.IncomingHttpHeaders; body: string };

/**
 * The platform's system: an HTTP server on 127.0.0.1 that records what it is sent and answers
 * with the status the test sets (the service runs with WEBHOOK_ALLOW_PRIVATE=true, so http to
 * loopback is allowed).
 */
async function startReceiver() {
  const received: Received[] = [];
  let status = 200;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
      response.writeHead(status, { "content-type": "application/json" });
      response.end(
        status < 300 ? JSON.stringify({ ok: true }) : JSON.stringify({ error: "receiver is down for maintenance" }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/due`,
    received,
    answer: (next: number) => {
      status = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Both signatures of a received delivery, checked with the public key the page showed. */
function expectSigned(delivery: Received, publicKeyPem: string) {
  const body = Buffer.from(delivery.body);
  const hexSignature = String(delivery.headers["x-webhook-signature"]);
  expect(verify(null, body, publicKeyPem, Buffer.from(hexSignature, "hex")), "X-Webhook-Signature verifies").toBe(true);
  const id = String(delivery.headers["webhook-id"]);
  const timestamp = String(delivery.headers["webhook-timestamp"]);
  const [version, signature = ""] = String(delivery.headers["webhook-signature"]).split(",");
  expect(version).toBe("v1a");
  expect(
    verify(null, Buffer.from(`${id}.${timestamp}.${delivery.body}`), publicKeyPem, Buffer.from(signature, "base64")),
    "webhook-signature verifies",
  ).toBe(true);
  return JSON.parse(delivery.body) as {
    id: string;
    type: string;
    data: Record<string, unknown>;
    occurredAt: string;
    attemptedAt: string;
  };
}

/** Full-page screenshots at desktop and phone width (test-results/<test>/<name>-1280.png, -390.png). */
async function snapWidths(page: Page, testInfo: TestInfo, name: string) {
  const original = page.viewportSize();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await snap(page, testInfo, `${name}-${width}`);
  }
  if (original) await page.setViewportSize(original);
}

/**
 * A second admin with 2FA, signed in through the API only: prepares endpoints for a test whose own
 * employee may not (a viewer).
 */
async function adminWithCode(server: Server & { inviter: APIRequestContext }, request: APIRequestContext) {
  const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const invited = await server.inviter.post("/v1/employees", {
    data: { name: `Webhook Admin ${suffix}`, email: `webhook.admin.${suffix}@acme.example` },
  });
  expect(invited.status()).toBe(201);
  const { invitationUrl, id } = (await invited.json()) as { invitationUrl: string; id: string };
  const accepted = await request.post(`${server.baseURL}/v1/employees/invitations/accept`, {
    data: { token: new URL(invitationUrl).searchParams.get("token"), password: EMPLOYEE_PASSWORD },
  });
  expect(accepted.status()).toBe(200);
  // After accepting: a role change ends the invitation link (the employee's security stamp moves).
  setRole(server, id, "admin");
  return enrolTotp(request, server.baseURL, EMPLOYEE_PASSWORD);
}

const deliveries = (page: Page) => page.getByTestId("webhook-delivery");

test.describe("Webhooks page", () => {
  test("adds an endpoint, sends a test event, sees a failure with its response, retries it from the page", async ({
    page,
    baseURL,
  }, testInfo) => {
    const receiver = await startReceiver();
    try {
      const { authenticator } = await enrolTotp(page.request, baseURL!, EMPLOYEE_PASSWORD);
      await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
      await page.goto("/api-keys");
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Webhooks" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();

      // Adding: URL, description, events (each with what it means), and a fresh authenticator code.
      await page.getByRole("button", { name: "Add endpoint" }).click();
      const dialog = page.getByRole("dialog");
      await expect(dialog.getByRole("heading", { name: "Add webhook endpoint" })).toBeVisible();
      await dialog.getByLabel("URL").fill(receiver.url);
      const description = `Payouts service ${Date.now().toString(36)}`;
      await dialog.getByLabel("Description").fill(description);
      await expect(dialog.getByLabel("transfer.created")).toHaveAccessibleDescription(
        "A transfer to a recipient was created.",
      );
      await dialog.getByLabel("transfer.created").check();
      await dialog.getByLabel("api_key.expiring").check();
      const offeredToAdmin = EVENT_TYPE_NAMES.filter((type) =>
        ROLE_PERMISSIONS.admin.includes(EVENT_TYPE_READ_PERMISSIONS[type]),
      );
      await expect(dialog.getByText(`2 of ${offeredToAdmin.length} chosen`)).toBeVisible();
      const code = await authenticator.next();
      await dialog.getByLabel("Authenticator code").fill(code);
      await snapWidths(page, testInfo, "1-create-dialog");
      await dialog.getByRole("button", { name: "Add endpoint" }).click();

      // The public key, shown with a copy button, is the one the API gives for the endpoint.
      await expect(dialog.getByRole("heading", { name: "Endpoint added" })).toBeVisible();
      const publicKey = (await dialog.getByTestId("webhook-public-key").textContent())!;
      expect(publicKey).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----$/);
      await dialog.getByRole("button", { name: "Copy public key" }).click();
      expect((await page.evaluate(() => navigator.clipboard.readText())).trim()).toBe(publicKey);
      await dialog.getByRole("button", { name: "Done" }).click();

      const row = page.getByRole("row").filter({ hasText: description });
      await expect(row).toContainText(receiver.url);
      await expect(row).toContainText("enabled");
      await expect(row.getByRole("listitem")).toHaveText(["transfer.created", "api_key.expiring"]);
      await snapWidths(page, testInfo, "2-endpoints-list");

      // The delivery log: a test event, delivered, signed with the endpoint's key.
      await row.getByRole("link", { name: `Deliveries of ${description}` }).click();
      await expect(page.getByRole("heading", { level: 1, name: description })).toBeVisible();
      await expect(page.getByText("No deliveries yet.")).toBeVisible();
      await page.getByRole("button", { name: "Send test event" }).click();
      await expect(deliveries(page)).toHaveCount(1);
      const first = deliveries(page).first();
      await expect(first).toHaveAttribute("data-status", "delivered");
      await expect(first.getByTestId("delivery-attempts")).toHaveText("1");
      await expect(first.getByTestId("delivery-response-status")).toContainText("HTTP 200");
      expect(receiver.received).toHaveLength(1);
      const sent = expectSigned(receiver.received[0]!, publicKey);
      expect(sent.type).toBe("webhook.test");
      await expect(first).toContainText(sent.id);

      // The receiver fails: the delivery shows the failed attempt with the receiver's answer.
      receiver.answer(500);
      await page.getByRole("button", { name: "Send test event" }).click();
      await expect(deliveries(page)).toHaveCount(2);
      const failing = deliveries(page).first();
      await expect(failing.getByTestId("delivery-response-status")).toContainText("HTTP 500");
      await expect(failing.getByTestId("delivery-attempts")).toHaveText("1");
      await expect(failing).toContainText("last attempt failed");
      await failing.getByText("Payload and last response").click();
      await expect(failing.getByTestId("delivery-response-body")).toContainText(
        '"error": "receiver is down for maintenance"',
      );
      const failedId = expectSigned(receiver.received[1]!, publicKey).id;
      await expect(failing.getByTestId("delivery-payload")).toContainText('"accountId"');
      await deliveries(page).nth(1).getByText("Payload and last response").click();
      await snapWidths(page, testInfo, "3-delivery-log");

      // Failed only, kept in the URL: the failing delivery without the delivered one.
      await page.getByLabel("Failed only").check();
      await page.getByRole("button", { name: "Apply filters" }).click();
      await expect(page).toHaveURL(/onlyFailed=true/);
      await expect(deliveries(page)).toHaveCount(1);
      await expect(deliveries(page).first()).toContainText(failedId);
      // Dates: today holds both; tomorrow none.
      const today = new Date().toISOString().slice(0, 10);
      const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
      await page.goto(`${new URL(page.url()).pathname}?startDate=${tomorrow}`);
      await expect(page.getByText("No deliveries match these filters.")).toBeVisible();
      await expect(page.getByLabel("From (UTC)")).toHaveValue(tomorrow);
      await page.getByLabel("From (UTC)").fill(today);
      await page.getByLabel("To (UTC)").fill(today);
      await page.getByRole("button", { name: "Apply filters" }).click();
      await expect(deliveries(page)).toHaveCount(2);
      await page.getByRole("button", { name: "Clear filters" }).click();
      await expect(page).not.toHaveURL(/startDate/);

      // The receiver is back: Retry from the page sends it again, and it is delivered on the second attempt.
      receiver.answer(200);
      const retried = deliveries(page).filter({ hasText: failedId });
      // Usually 1; more if the worker's own retry (about a minute later) came first on a slow machine.
      const attemptsBefore = Number(await retried.getByTestId("delivery-attempts").textContent());
      await retried.getByRole("button", { name: `Retry ${failedId}` }).click();
      await expect(retried).toHaveAttribute("data-status", "delivered");
      await expect(retried.getByTestId("delivery-attempts")).toHaveText(String(attemptsBefore + 1));
      await expect(retried.getByTestId("delivery-response-status")).toContainText("HTTP 200");
      expect(expectSigned(receiver.received.at(-1)!, publicKey).id).toBe(failedId);
    } finally {
      await receiver.close();
    }
  });

  test("edits, disables and deletes an endpoint, each with an authenticator code", async ({ page, baseURL }) => {
    const receiver = await startReceiver();
    try {
      const { authenticator } = await enrolTotp(page.request, baseURL!, EMPLOYEE_PASSWORD);
      const created = await page.request.post(`${baseURL}/v1/webhook_endpoints`, {
        headers: { origin: baseURL!, "service-totp-code": await authenticator.next() },
        data: { url: receiver.url, description: `Ledger ${Date.now().toString(36)}`, events: ["transaction.created"] },
      });
      expect(created.status()).toBe(201);
      const endpoint = (await created.json()) as { id: string; description: string };
      await page.goto("/webhooks");
      const row = page.getByRole("row").filter({ hasText: endpoint.description });

      await row.getByRole("button", { name: `Edit ${endpoint.description}` }).click();
      const dialog = page.getByRole("dialog");
      const renamed = `${endpoint.description} (renamed)`;
      await dialog.getByLabel("Description").fill(renamed);
      await dialog.getByLabel("recipient.deleted").check();
      // A wrong code is refused under its field; a fresh one saves.
      await dialog.getByLabel("Authenticator code").fill("12345");
      await dialog.getByRole("button", { name: "Save changes" }).click();
      await expect(dialog.getByLabel("Authenticator code")).toHaveAttribute("aria-invalid", "true");
      await dialog.getByLabel("Authenticator code").fill(await authenticator.next());
      await dialog.getByRole("button", { name: "Save changes" }).click();
      await expect(page.getByRole("status").filter({ hasText: `${renamed} is saved.` })).toBeVisible();
      const renamedRow = page.getByRole("row").filter({ hasText: renamed });
      await expect(renamedRow.getByRole("listitem")).toHaveText(["transaction.created", "recipient.deleted"]);

      await renamedRow.getByRole("button", { name: `Disable ${renamed}` }).click();
      await dialog.getByLabel("Authenticator code").fill(await authenticator.next());
      await dialog.getByRole("button", { name: "Disable endpoint" }).click();
      await expect(renamedRow).toContainText("disabled");
      // A disabled endpoint is sent nothing: the page does not offer a test event.
      await renamedRow.getByRole("link", { name: `Deliveries of ${renamed}` }).click();
      await expect(page.getByRole("button", { name: "Send test event" })).toBeDisabled();
      await page.getByRole("button", { name: "Enable" }).click();
      await dialog.getByLabel("Authenticator code").fill(await authenticator.next());
      await dialog.getByRole("button", { name: "Enable endpoint" }).click();
      await expect(page.getByRole("status").filter({ hasText: `${renamed} is enabled.` })).toBeVisible();
      await expect(page.getByRole("button", { name: "Send test event" })).toBeEnabled();

      await page.getByRole("button", { name: "Delete" }).click();
      await dialog.getByLabel("Authenticator code").fill(await authenticator.next());
      await dialog.getByRole("button", { name: "Delete endpoint" }).click();
      await expect(page).toHaveURL(/\/webhooks$/);
      await expect(page.getByRole("row").filter({ hasText: renamed })).toHaveCount(0);
      const gone = await page.request.get(`${baseURL}/v1/webhook_endpoints/${endpoint.id}`);
      expect(gone.status()).toBe(404);
    } finally {
      await receiver.close();
    }
  });

  test.describe("as a viewer", () => {
    test.use({ role: "viewer" });

    test("sees endpoints and their deliveries, with no controls", async ({ page, server, playwright }) => {
      const receiver = await startReceiver();
      const admin = await playwright.request.newContext({
        baseURL: server.baseURL,
        extraHTTPHeaders: { origin: server.baseURL },
      });
      try {
        const { authenticator } = await adminWithCode(server, admin);
        const description = `Viewer sees ${Date.now().toString(36)}`;
        const created = await admin.post("/v1/webhook_endpoints", {
          headers: { "service-totp-code": await authenticator.next() },
          data: { url: receiver.url, description, events: ["employee.invited"] },
        });
        expect(created.status()).toBe(201);
        const { id } = (await created.json()) as { id: string };
        expect((await admin.post(`/v1/webhook_endpoints/${id}/test`)).status()).toBe(201);

        await page.goto("/webhooks");
        await expect(
          page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Webhooks" }),
        ).toHaveAttribute("aria-current", "page");
        await expect(page.getByRole("note")).toContainText(
          "can see webhook endpoints and their deliveries but not change them",
        );
        const row = page.getByRole("row").filter({ hasText: description });
        await expect(row).toBeVisible();
        await expect(page.getByRole("button", { name: "Add endpoint" })).toHaveCount(0);
        await expect(row.getByRole("button")).toHaveCount(0);

        await row.getByRole("link", { name: `Deliveries of ${description}` }).click();
        await expect(deliveries(page)).toHaveCount(1);
        await expect(deliveries(page).first()).toHaveAttribute("data-status", "delivered");
        await expect(
          page.getByRole("button", { name: /^(Send test event|Edit|Enable|Disable|Delete|Retry.*)$/ }),
        ).toHaveCount(0);
        await expect(page.getByRole("button", { name: "Copy public key" })).toBeVisible();
      } finally {
        await admin.dispose();
        await receiver.close();
      }
    });
  });
  test.describe("as a developer", () => {
    test.use({ role: "developer" });

    test("is offered only the event types they may read, and sees a delivery of any other as hidden, without retry", async ({
      page,
      server,
      playwright,
      baseURL,
    }, testInfo) => {
      const receiver = await startReceiver();
      const admin = await playwright.request.newContext({
        baseURL: server.baseURL,
        extraHTTPHeaders: { origin: server.baseURL },
      });
      try {
        // An admin (who may read employees) subscribes an endpoint to employee.invited; an invitation follows.
        const { authenticator: adminCode } = await adminWithCode(server, admin);
        const description = `Developer bound ${Date.now().toString(36)}`;
        const created = await admin.post("/v1/webhook_endpoints", {
          headers: { "service-totp-code": await adminCode.next() },
          data: { url: receiver.url, description, events: ["transfer.created", "employee.invited"] },
        });
        expect(created.status()).toBe(201);
        const { id } = (await created.json()) as { id: string };
        const inviteeEmail = `hidden.invitee.${Date.now().toString(36)}@acme.example`;
        expect(
          (
            await server.inviter.post("/v1/employees", { data: { name: "Hidden Invitee", email: inviteeEmail } })
          ).status(),
        ).toBe(201);
        expect((await admin.post(`/v1/webhook_endpoints/${id}/test`)).status()).toBe(201);

        // The add dialog offers what a developer may read, and nothing else (computed from the role table).
        await enrolTotp(page.request, baseURL!, EMPLOYEE_PASSWORD);
        await page.goto("/webhooks");
        await page.getByRole("button", { name: "Add endpoint" }).click();
        const dialog = page.getByRole("dialog");
        const offered = EVENT_TYPE_NAMES.filter((type) =>
          ROLE_PERMISSIONS.developer.includes(EVENT_TYPE_READ_PERMISSIONS[type]),
        );
        expect(offered).toContain("transfer.created");
        for (const type of EVENT_TYPE_NAMES)
          await expect(dialog.getByRole("checkbox", { name: type, exact: true })).toHaveCount(
            offered.includes(type) ? 1 : 0,
          );
        await expect(dialog.getByText(`0 of ${offered.length} chosen`)).toBeVisible();
        await dialog.getByRole("button", { name: "All", exact: true }).click();
        await expect(dialog.getByText(`${offered.length} of ${offered.length} chosen`)).toBeVisible();
        await snapWidths(page, testInfo, "5-developer-create-dialog");
        await dialog.getByRole("button", { name: "Cancel" }).click();

        // The endpoint's edit dialog keeps its URL and events: it hears what a developer may not read.
        const row = page.getByRole("row").filter({ hasText: description });
        await row.getByRole("button", { name: `Edit ${description}` }).click();
        await expect(dialog.getByTestId("endpoint-locked")).toContainText("employee.invited (needs employees:read)");
        await expect(dialog.getByLabel("URL")).toHaveAttribute("readonly", "");
        await expect(dialog.getByRole("checkbox")).toHaveCount(0);
        await snapWidths(page, testInfo, "6-developer-edit-dialog");
        await dialog.getByRole("button", { name: "Cancel" }).click();

        // The delivery log: the invitation's delivery is listed, its data hidden, and not offered for retry.
        await row.getByRole("link", { name: `Deliveries of ${description}` }).click();
        const invitation = deliveries(page).filter({ hasText: "employee.invited" });
        const probe = deliveries(page).filter({ hasText: "webhook.test" });
        await expect(invitation).toHaveCount(1);
        await expect(invitation).toHaveAttribute("data-status", "delivered");
        await expect(probe).toHaveAttribute("data-status", "delivered");
        await expect(invitation.getByTestId("delivery-hidden")).toHaveText("hidden: needs employees:read");
        await expect(invitation.getByRole("button", { name: /^Retry/ })).toHaveCount(0);
        await invitation.getByText("Payload and last response").click();
        await expect(invitation.getByTestId("delivery-payload-hidden")).toHaveText("hidden: needs employees:read");
        await expect(invitation.getByTestId("delivery-payload")).toHaveCount(0);
        await expect(page.getByText(inviteeEmail)).toHaveCount(0);
        // What a developer may read stays as it was: the test event's data, and its Retry.
        await expect(probe.getByTestId("delivery-hidden")).toHaveCount(0);
        await expect(probe.getByRole("button", { name: /^Retry/ })).toHaveCount(1);
        await probe.getByText("Payload and last response").click();
        await expect(probe.getByTestId("delivery-payload")).toContainText('"webhookEndpointId"');
        await snapWidths(page, testInfo, "7-developer-delivery-log");
        // The receiver did get the invitation: it is only the log that does not show it to a developer.
        expect(receiver.received.some((delivery) => delivery.body.includes(inviteeEmail))).toBe(true);
      } finally {
        await admin.dispose();
        await receiver.close();
      }
    });
  });
});

test.describe("API keys expiry banner", () => {
  test("names a key that expires in 5 days, with its days left", async ({ page, baseURL }, testInfo) => {
    const { authenticator } = await enrolTotp(page.request, baseURL!, EMPLOYEE_PASSWORD);
    const name = `Expiring soon ${Date.now().toString(36)}`;
    const issued = await page.request.post(`${baseURL}/v1/api_keys`, {
      headers: { origin: baseURL!, "service-totp-code": await authenticator.next() },
      data: { name, expiresAt: new Date(Date.now() + 5 * 86_400_000).toISOString(), permissions: ["webhooks:read"] },
    });
    expect(issued.status()).toBe(201);
    const { prefix } = (await issued.json()) as { prefix: string };
    await page.goto("/api-keys");
    const banner = page.getByRole("region", { name: "Keys expiring soon" });
    await expect(banner).toContainText("within 30 days");
    await expect(banner.getByRole("listitem").filter({ hasText: name })).toContainText(`${prefix}…: 5 days left`);
    await snapWidths(page, testInfo, "4-api-keys-banner");
  });
});
