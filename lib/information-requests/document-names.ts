// The names of a request's documents. What a client calls its upload is a label: the bytes decide the
// type, and the type decides the extension it is stored and served with. A PNG uploaded as
// `x<script>.html` is `x_script_.png`, so neither a browser's download nor a file manager opens it as
// a page.

/** Control characters, bidirectional controls and line separators: never part of a stored file name. */
const UNSAFE_IN_FILE_NAME = /[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\u2028\u2029]/g;
/** Characters no file name may hold on Windows, or that a shell or a path would read as syntax. */
const RESERVED_IN_FILE_NAME = /[<>:"/\\|?*]/g;
const FILE_NAME_MAX_LENGTH = 255;

/** The extension of each type a document may be. */
const EXTENSIONS: Record<string, string> = { "application/pdf": "pdf", "image/png": "png", "image/jpeg": "jpg" };

/**
 * The client's file name as it may be shown: its last path segment, without control characters,
 * well-formed, at most 255 characters; "document" when nothing is left. Kept as the document's label.
 */
export function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const cleaned = base.toWellFormed().replace(UNSAFE_IN_FILE_NAME, "").trim();
  const clipped = Array.from(cleaned).slice(0, FILE_NAME_MAX_LENGTH).join("").trim();
  return clipped === "" || clipped === "." || clipped === ".." ? "document" : clipped;
}

/**
 * The name a document is stored and served under: the label's stem (its last extension dropped,
 * characters reserved in file names replaced) with the extension of `contentType`, the type its bytes
 * show. The same name again for a name it made, so it can be applied to any stored name.
 */
export function typedFileName(name: string, contentType: string): string {
  const label = safeFileName(name);
  const dot = label.lastIndexOf(".");
  const stem = Array.from((dot > 0 ? label.slice(0, dot) : label).replace(RESERVED_IN_FILE_NAME, "_"))
    .slice(0, FILE_NAME_MAX_LENGTH - 5)
    .join("")
    .replace(/[. ]+$/, "");
  return `${stem || "document"}.${EXTENSIONS[contentType] ?? "bin"}`;
}
