import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { raiseInformationRequest } from "@/lib/information-requests/information-requests";
import { withScope } from "@/lib/tenancy";
import { lastAuditEvent } from "@/lib/testing/audit";
import { apiKeyFor, nextMillisecond, signedInEmployee } from "@/lib/testing/factories";
import { call, expectError, type Call } from "@/lib/testing/http";
import { createWebhookEndpoint } from "@/lib/webhooks/webhook-endpoints";
import { GET as download } from "./[docId]/content/route";
import { GET, POST } from "./route";

const MiB = 1024 * 1024;

// Tiny but real files of each accepted type.
const PDF = Buffer.from("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n");
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);
const JPEG = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00,
  0x00, 0xff, 0xd9,
]);

/** A PDF of exactly `size` bytes (its header, then padding). */
const pdfOfSize = (size: number) => Buffer.concat([PDF, Buffer.alloc(size - PDF.length, 0x20)]);

/** A signed-in owner, a request of their platform, and a webhook endpoint hearing document_added. */
async function staffWithRequest() {
  const staff = await signedInEmployee();
  const scope = { platformId: staff.account.id, accountId: staff.account.id };
  const request = await withScope(scope, () => raiseInformationRequest({ kind: "due_diligence" }));
  const hook = await withScope(scope, () =>
    createWebhookEndpoint({
      url: "https://documents.example.com/hook",
      events: ["information_request.document_added"],
      enabled: true,
    }),
  );
  return { ...staff, scope, request, hook };
}

type Credential = { session?: string; apiKey?: string };

const formWith = (bytes: Uint8Array, fileName: string, type = "application/octet-stream") => {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type }), fileName);
  return form;
};

const upload = (credential: Credential, id: string, options: Partial<Call>) =>
  call(POST, { method: "POST", params: { id }, ...credential, ...options });
const uploadFile = (credential: Credential, id: string, bytes: Uint8Array, fileName: string, type?: string) =>
  upload(credential, id, { form: formWith(bytes, fileName, type) });
const list = (credential: Credential, id: string) => call(GET, { params: { id }, ...credential });

/** The raw answer of the content route (call() would read it as text). */
async function fetchContent(credential: Credential, id: string, docId: string) {
  const headers = new Headers({ host: "localhost:3000" });
  if (credential.session) headers.set("cookie", `pmc_session=${credential.session}`);
  if (credential.apiKey) headers.set("authorization", `Bearer ${credential.apiKey}`);
  const request = new Request(`http://localhost:3000/v1/information_requests/${id}/documents/${docId}/content`, {
    headers,
  });
  return download(request, { params: Promise.resolve({ id, docId }) });
}

/** What an upload may leave behind: none of it after a refusal. */
async function leftBehind(informationRequestId: string, webhookEndpointId: string) {
  return {
    documents: await db().informationRequestDocument.count({ where: { informationRequestId } }),
    timeline: await db().informationRequestEvent.count({ where: { informationRequestId } }),
    events: await db().webhookDelivery.count({ where: { webhookEndpointId } }),
  };
}
const NOTHING = { documents: 0, timeline: 0, events: 0 };

const BOUNDARY = "----evidence-test-boundary";
const MULTIPART = { "content-type": `multipart/form-data; boundary=${BOUNDARY}` };
const partHead = Buffer.from(
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
);
const partTail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);

/**
 * A streamed body that records how much of it was read: `chunks` (then, with `fail`, an error as a
 * dropped connection gives; otherwise the end), pulled one at a time as the reader asks.
 */
function recordingStream(chunks: Uint8Array[], { fail = false, endless = false } = {}) {
  const read = { chunks: 0, bytes: 0 };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const chunk = chunks[read.chunks] ?? (endless ? chunks.at(-1) : undefined);
        if (!chunk) {
          if (fail) controller.error(new Error("connection reset by peer"));
          else controller.close();
          return;
        }
        read.chunks += 1;
        read.bytes += chunk.byteLength;
        controller.enqueue(chunk);
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, read };
}

describe("POST /v1/information_requests/{id}/documents", () => {
  it.each([
    ["a PDF", PDF, "statement.pdf", "application/pdf"],
    ["a PNG", PNG, "passport.png", "image/png"],
    ["a JPEG", JPEG, "selfie.jpg", "image/jpeg"],
  ] as const)(
    "201 for %s: its metadata, a timeline entry, an event and an audit record",
    async (_, bytes, name, type) => {
      const { account, session, employee, request, hook } = await staffWithRequest();
      const response = await uploadFile({ session }, request.id, bytes, name);
      expect(response.status).toBe(201);
      const sha256 = createHash("sha256").update(bytes).digest("hex");
      const document = {
        id: expect.stringMatching(/^doc_[a-z0-9]+$/),
        fileName: name,
        label: name,
        contentType: type,
        size: bytes.length,
        sha256,
        uploadedById: employee.id,
        createdAt: expect.any(String),
      };
      expect(response.body).toEqual(document);
      const row = await db().informationRequestDocument.findUniqueOrThrow({ where: { id: response.body.id! } });
      expect(Buffer.from(row.content).equals(bytes)).toBe(true);
      const timeline = await db().informationRequestEvent.findMany({ where: { informationRequestId: request.id } });
      expect(timeline).toEqual([
        expect.objectContaining({
          type: "document_added",
          actorType: "employee",
          actorId: employee.id,
          data: { documentId: response.body.id, fileName: name, contentType: type, size: bytes.length },
        }),
      ]);
      const events = await db().webhookDelivery.findMany({ where: { webhookEndpointId: hook.id } });
      expect(events.map((event) => event.eventType)).toEqual(["information_request.document_added"]);
      expect(events[0]!.eventData).toEqual({
        ...response.body,
        informationRequestId: request.id,
        accountId: account.id,
      });
      const audit = await lastAuditEvent({ action: "information_request.document.create", targetId: request.id });
      expect(audit).toMatchObject({ actorId: employee.id, status: 201 });
      expect(audit.details).toEqual({
        documentId: response.body.id,
        fileName: name,
        label: name,
        contentType: type,
        size: bytes.length,
        sha256,
      });
    },
  );

  it("201 from an API key with information_requests:write: the key is the uploader", async () => {
    const { account, request } = await staffWithRequest();
    const key = await apiKeyFor(account.id, { permissions: ["information_requests:write"] });
    const response = await uploadFile({ apiKey: key.secret }, request.id, PNG, "scan.png");
    expect(response.status).toBe(201);
    expect(response.body.uploadedById).toBe(key.id);
  });

  it("422 naming `file` for bytes that are not a PDF, PNG or JPEG, whatever the name or declared type says", async () => {
    const { session, request, hook } = await staffWithRequest();
    const cases = [
      [Buffer.from("Just some text, not a PDF at all.\n"), "statement.pdf", "application/pdf"],
      [Buffer.from("<!doctype html><script>alert(1)</script>"), "photo.png", "image/png"],
      [Buffer.from("GIF89a\x01\x00\x01\x00\x00\x00\x00;"), "animation.jpg", "image/jpeg"],
      [Buffer.alloc(0), "empty.pdf", "application/pdf"],
    ] as const;
    for (const [bytes, name, type] of cases) {
      const response = await uploadFile({ session }, request.id, bytes, name, type);
      expectError(response, 422, "err_validation");
      expect(response.body.details?.file, name).toMatch(/must be a PDF, PNG or JPEG/);
    }
    expect(await leftBehind(request.id, hook.id)).toEqual(NOTHING);
  });

  it("422 naming `file` without a file part, with a text field instead, or with two files; 415 for a body that is not multipart", async () => {
    const { session, request, hook } = await staffWithRequest();
    const other = new FormData();
    other.append("document", new Blob([PDF]), "a.pdf");
    const asText = new FormData();
    asText.append("file", "%PDF-1.4 as a text field");
    const two = formWith(PDF, "a.pdf");
    two.append("file", new Blob([PNG]), "b.png");
    for (const form of [other, asText, two, new FormData()]) {
      const response = await upload({ session }, request.id, { form });
      expectError(response, 422, "err_validation");
      expect(response.body.details).toHaveProperty("file");
    }
    for (const options of [
      { body: { file: PDF.toString("base64") } },
      { rawBody: PDF.toString(), headers: { "content-type": "application/pdf" } },
      {},
    ]) {
      const response = await upload({ session }, request.id, options);
      expectError(response, 415, "err_unsupported_media_type");
      expect(response.body.details).toHaveProperty("body");
    }
    const broken = await upload({ session }, request.id, { rawBody: "no parts here", headers: MULTIPART });
    expectError(broken, 400, "err_bad_request");
    expect(await leftBehind(request.id, hook.id)).toEqual(NOTHING);
  });

  it("201 for exactly 10 MiB; 413 for 10 MiB and one byte, leaving nothing", async () => {
    const { session, request, hook } = await staffWithRequest();
    const largest = pdfOfSize(10 * MiB);
    const accepted = await uploadFile({ session }, request.id, largest, "largest.pdf");
    expect(accepted.status).toBe(201);
    expect(accepted.body).toMatchObject({ size: 10 * MiB, sha256: createHash("sha256").update(largest).digest("hex") });
    const refused = await uploadFile({ session }, request.id, pdfOfSize(10 * MiB + 1), "too-large.pdf");
    expectError(refused, 413, "err_payload_too_large");
    expect(refused.body.details).toHaveProperty("file");
    expect(await leftBehind(request.id, hook.id)).toEqual({ documents: 1, timeline: 1, events: 1 });
  });

  it("413 from a Content-Length over the limit, before a byte of the body is read", async () => {
    const { session, request, hook } = await staffWithRequest();
    const { stream, read } = recordingStream([partHead, pdfOfSize(MiB)], { endless: true });
    const response = await upload({ session }, request.id, {
      stream,
      headers: { ...MULTIPART, "content-length": String(20 * MiB) },
    });
    expectError(response, 413, "err_payload_too_large");
    expect(read).toEqual({ chunks: 0, bytes: 0 });
    expect(await leftBehind(request.id, hook.id)).toEqual(NOTHING);
    const audit = await lastAuditEvent({ action: "information_request.document.create", targetId: request.id });
    expect(audit).toMatchObject({ status: 413 });
  });

  it("413 for a chunked body (no Content-Length) once it passes the limit: reading stops there", async () => {
    const { session, request, hook } = await staffWithRequest();
    const chunk = new Uint8Array(MiB).fill(0x20);
    const { stream, read } = recordingStream([partHead, PDF, chunk], { endless: true });
    const response = await upload({ session }, request.id, { stream, headers: MULTIPART });
    expectError(response, 413, "err_payload_too_large");
    // The limit (10 MiB and the framing's allowance) and at most the one chunk that crossed it.
    expect(read.bytes).toBeGreaterThan(10 * MiB);
    expect(read.bytes).toBeLessThanOrEqual(11 * MiB + partHead.length + PDF.length);
    expect(await leftBehind(request.id, hook.id)).toEqual(NOTHING);
  });

  it("a body that breaks off midway (the connection dropped) leaves no document, timeline entry or event", async () => {
    const { session, request, hook } = await staffWithRequest();
    const { stream, read } = recordingStream([partHead, PDF, Buffer.alloc(64 * 1024, 0x20)], { fail: true });
    const response = await upload({ session }, request.id, { stream, headers: MULTIPART });
    expectError(response, 400, "err_bad_request");
    expect(response.body.message).toMatch(/ended before it was complete/);
    expect(read.chunks).toBe(3);
    expect(await leftBehind(request.id, hook.id)).toEqual(NOTHING);
    // The same bytes, completed, are accepted: the refusal came from the break alone.
    const whole = Buffer.concat([partHead, PDF, partTail]);
    const completed = await upload({ session }, request.id, { rawBytes: new Uint8Array(whole), headers: MULTIPART });
    expect(completed.status).toBe(201);
  });

  it("keeps a safe label: no path, no control characters, at most 255 characters, `document` when none is left; the name has the type's extension", async () => {
    const { session, request } = await staffWithRequest();
    const cases = [
      ["../../etc/pass\u0007wd.pdf", "passwd.pdf", "passwd.pdf"],
      ["C:\\Users\\ada\\Scans\\scan.pdf", "scan.pdf", "scan.pdf"],
      ["Kontoauszug M\u00e4rz \u202eFDP.exe", "Kontoauszug M\u00e4rz FDP.exe", "Kontoauszug M\u00e4rz FDP.pdf"],
      [`${"a".repeat(300)}.pdf`, "a".repeat(255), `${"a".repeat(250)}.pdf`],
      ["../", "document", "document.pdf"],
      [" \u0001 ", "document", "document.pdf"],
      ["statement", "statement", "statement.pdf"],
    ];
    for (const [sent, label, fileName] of cases) {
      const response = await uploadFile({ session }, request.id, PDF, sent!);
      expect(response.status, sent).toBe(201);
      expect(response.body, sent).toMatchObject({ label, fileName });
    }
    // FormData leaves out an empty name; a client may still send `filename=""`.
    const unnamed = Buffer.concat([partHead, PDF, partTail])
      .toString("latin1")
      .replace('filename="big.pdf"', 'filename=""');
    const response = await upload({ session }, request.id, {
      rawBytes: new Uint8Array(Buffer.from(unnamed, "latin1")),
      headers: MULTIPART,
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ label: "document", fileName: "document.pdf" });
  });

  // The fourth outside attack: a PNG header followed by HTML, uploaded as `x<script>.html`, downloaded
  // with that name and ran as a page when opened from the disk.
  it("a document is stored and served with the extension of the type its bytes show; the uploaded name is only its label", async () => {
    const { session, request } = await staffWithRequest();
    const polyglot = Buffer.concat([PNG, Buffer.from("<html><script>alert(document.domain)</script></html>")]);
    const response = await uploadFile({ session }, request.id, polyglot, "x<script>.html", "text/html");
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      fileName: "x_script_.png",
      label: "x<script>.html",
      contentType: "image/png",
    });
    const content = await fetchContent({ session }, request.id, response.body.id!);
    expect(content.headers.get("content-type")).toBe("image/png");
    expect(content.headers.get("content-disposition")).toBe('attachment; filename="x_script_.png"');
    const listed = await list({ session }, request.id);
    expect(listed.body.map((document) => document.fileName)).toEqual(["x_script_.png"]);
    const row = await db().informationRequestDocument.findUniqueOrThrow({ where: { id: response.body.id! } });
    expect(row.fileName).toBe("x_script_.png");
  });

  it("an Idempotency-Key repeat gets the same answer, and the document is stored once", async () => {
    const { session, request } = await staffWithRequest();
    const headers = { "idempotency-key": "upload-once-1" };
    const first = await upload({ session }, request.id, { form: formWith(PDF, "once.pdf"), headers });
    const again = await upload({ session }, request.id, { form: formWith(PDF, "once.pdf"), headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    const other = await upload({ session }, request.id, { form: formWith(PNG, "once.pdf"), headers });
    expectError(other, 422, "err_idempotency_mismatch");
    expect(await db().informationRequestDocument.count({ where: { informationRequestId: request.id } })).toBe(1);
  });

  it("404 for another account's request or one that exists nowhere; 403 for a viewer and a key without the permission", async () => {
    const { account, request, hook } = await staffWithRequest();
    const stranger = await signedInEmployee();
    for (const id of [request.id, "ir_doesnotexist"]) {
      const response = await uploadFile({ session: stranger.session }, id, PDF, "not-mine.pdf");
      expectError(response, 404, "err_not_found");
      expect(response.body.message).toBe("Information request not found");
    }
    const viewer = await signedInEmployee({ role: "viewer", platform: account });
    const refused = await uploadFile({ session: viewer.session }, request.id, PDF, "viewer.pdf");
    expectError(refused, 403, "err_forbidden");
    expect(refused.body.details).toEqual({ permission: "information_requests:write" });
    const reader = await apiKeyFor(account.id, { permissions: ["information_requests:read"] });
    expectError(await uploadFile({ apiKey: reader.secret }, request.id, PDF, "reader.pdf"), 403, "err_forbidden");
    expect(await leftBehind(request.id, hook.id)).toEqual(NOTHING);
  });
});

describe("GET /v1/information_requests/{id}/documents", () => {
  it("200: the metadata, oldest first, never the bytes; 404 for another account's request", async () => {
    const { account, session, request } = await staffWithRequest();
    const ids: string[] = [];
    for (const [bytes, name] of [
      [PDF, "a.pdf"],
      [PNG, "b.png"],
      [JPEG, "c.jpg"],
    ] as const) {
      ids.push((await uploadFile({ session }, request.id, bytes, name)).body.id!);
      await nextMillisecond();
    }
    const reader = await apiKeyFor(account.id, { permissions: ["information_requests:read"] });
    const response = await list({ apiKey: reader.secret }, request.id);
    expect(response.status).toBe(200);
    expect(response.body.map((document) => document.id)).toEqual(ids);
    expect(response.body.map((document) => document.contentType)).toEqual([
      "application/pdf",
      "image/png",
      "image/jpeg",
    ]);
    expect(Object.keys(response.body[0]!).sort()).toEqual(
      ["contentType", "createdAt", "fileName", "id", "label", "sha256", "size", "uploadedById"].sort(),
    );
    const stranger = await signedInEmployee();
    expectError(await list({ session: stranger.session }, request.id), 404, "err_not_found");
  });
});

describe("GET /v1/information_requests/{id}/documents/{docId}/content", () => {
  it("200: the bytes with their stored type, as an attachment, nosniff and a CSP that runs nothing", async () => {
    const { account, session, request } = await staffWithRequest();
    const uploaded = await uploadFile({ session }, request.id, PNG, 'Ausweis M\u00e4rz "neu".png', "text/html");
    const reader = await apiKeyFor(account.id, { permissions: ["information_requests:read"] });
    const response = await fetchContent({ apiKey: reader.secret }, request.id, uploaded.body.id!);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("content-disposition")).toBe(
      "attachment; filename=\"Ausweis M_rz _neu_.png\"; filename*=UTF-8''Ausweis%20M%C3%A4rz%20_neu_.png",
    );
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    expect(response.headers.get("content-length")).toBe(String(PNG.length));
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.equals(PNG)).toBe(true);
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(uploaded.body.sha256);
  });

  it("an ASCII name goes out as filename alone", async () => {
    const { session, request } = await staffWithRequest();
    const uploaded = await uploadFile({ session }, request.id, PDF, "statement-2026.pdf");
    const response = await fetchContent({ session }, request.id, uploaded.body.id!);
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="statement-2026.pdf"');
    expect(response.headers.get("content-type")).toBe("application/pdf");
  });

  it("404 for another account's request, a document of another request, and one that exists nowhere; 403 without the permission", async () => {
    const { account, session, request, scope } = await staffWithRequest();
    const uploaded = await uploadFile({ session }, request.id, PDF, "mine.pdf");
    const otherRequest = await withScope(scope, () => raiseInformationRequest({ kind: "endorsement" }));
    const stranger = await signedInEmployee();
    const cases: [Credential, string, string][] = [
      [{ session: stranger.session }, request.id, uploaded.body.id!],
      [{ session }, otherRequest.id, uploaded.body.id!],
      [{ session }, request.id, "doc_doesnotexist"],
    ];
    for (const [credential, id, docId] of cases) {
      const response = await fetchContent(credential, id, docId);
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      expect(await response.json()).toMatchObject({ error_code: "err_not_found" });
    }
    const writer = await apiKeyFor(account.id, { permissions: ["information_requests:write"] });
    const refused = await fetchContent({ apiKey: writer.secret }, request.id, uploaded.body.id!);
    expect(refused.status).toBe(403);
  });
});
