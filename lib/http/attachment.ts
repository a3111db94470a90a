/**
 * A file as a download (a document's bytes, an export): `Content-Disposition: attachment` with its
 * name, never sniffed into another type by the browser, and with nothing in it allowed to run
 * (`sandbox`), should it be opened anyway.
 */
export function attachmentResponse({
  body,
  contentType,
  fileName,
}: {
  body: BodyInit;
  contentType: string;
  fileName: string;
}): Response {
  const headers = new Headers({
    "Content-Type": contentType,
    "Content-Disposition": contentDisposition(fileName),
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; sandbox",
  });
  if (body instanceof Uint8Array) headers.set("Content-Length", String(body.byteLength));
  return new Response(body, { headers });
}

/**
 * `attachment; filename="..."` (RFC 6266): the name in ASCII for every client, with `filename*`
 * (RFC 8187, UTF-8) beside it when the name has more than ASCII can say.
 */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\%]/g, "_");
  if (ascii === fileName) return `attachment; filename="${ascii}"`;
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeRfc8187(fileName)}`;
}

/** Percent-encodes all but RFC 8187's attr-char (letters, digits and !#$&+-.^_`|~). */
const encodeRfc8187 = (value: string) =>
  Array.from(new TextEncoder().encode(value), (byte) => {
    const char = String.fromCharCode(byte);
    return /[A-Za-z0-9!#$&+\-.^_`|~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }).join("");
