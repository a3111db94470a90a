import { describe, expect, it } from "vitest";
import { typedFileName } from "@/lib/information-requests/document-names";
import { presentDocument } from "@/lib/information-requests/evidence-schemas";

describe("typedFileName", () => {
  it("gives the uploaded name's stem the extension of the type the bytes show", () => {
    expect(typedFileName("x<script>.html", "image/png")).toBe("x_script_.png");
    expect(typedFileName("statement", "application/pdf")).toBe("statement.pdf");
    expect(typedFileName("selfie.JPEG", "image/jpeg")).toBe("selfie.jpg");
    expect(typedFileName("scan.tar.gz", "application/pdf")).toBe("scan.tar.pdf");
    expect(typedFileName(".htaccess", "image/png")).toBe(".htaccess.png");
    expect(typedFileName("trailing dots...", "image/png")).toBe("trailing dots.png");
    expect(typedFileName("a:b|c?.pdf", "application/pdf")).toBe("a_b_c_.pdf");
    expect(typedFileName("", "image/png")).toBe("document.png");
    expect(typedFileName("...", "image/png")).toBe("document.png");
  });

  it("answers a name it made unchanged, and never more than 255 characters", () => {
    for (const name of ["x<script>.html", `${"é".repeat(400)}.pdf`, "plain.png"]) {
      const typed = typedFileName(name, "image/png");
      expect(typedFileName(typed, "image/png")).toBe(typed);
      expect(Array.from(typed).length).toBeLessThanOrEqual(255);
      expect(typed).toMatch(/\.png$/);
    }
  });
});

describe("presentDocument", () => {
  it("shows a row stored before names were typed with its type's extension, and its old name as the label", () => {
    const row = {
      id: "doc_1",
      fileName: "old<b>.html",
      label: null,
      contentType: "image/png",
      size: 10,
      sha256: "0".repeat(64),
      uploadedById: "emp_1",
      createdAt: new Date("2026-11-01T00:00:00.000Z"),
    };
    expect(presentDocument(row)).toMatchObject({ fileName: "old_b_.png", label: "old<b>.html" });
  });
});
