import { describe, expect, it } from "vitest";
import { queryString } from "@/lib/client/api";
import { dueStateOf, formatAge, queueQuery, sortOf, viewOf } from "@/lib/client/request-queue";

describe("queue views", () => {
  it("reads ?view= and ?sort=, anything unknown as the defaults", () => {
    expect(viewOf("mine")).toBe("mine");
    expect(viewOf(null)).toBe("open");
    expect(viewOf("everything")).toBe("open");
    expect(sortOf("dueAt")).toBe("dueAt");
    expect(sortOf("priority")).toBe("createdAt");
  });

  it("maps each view to the list's filters, keeping the page's own and leaving out blanks", () => {
    const own = { kind: "endorsement", priority: "", startDate: "", endDate: "", sort: "createdAt" as const };
    expect(queueQuery("mine", own)).toEqual({
      kind: "endorsement",
      assigneeId: "me",
      status: ["requested", "on_review"],
    });
    expect(queueQuery("unassigned", own)).toMatchObject({ assigneeId: "none", status: ["requested", "on_review"] });
    expect(queueQuery("overdue", { ...own, sort: "dueAt" })).toEqual({
      kind: "endorsement",
      overdue: "true",
      sort: "dueAt",
    });
    expect(queueQuery("decided", own)).toMatchObject({ status: ["approved", "rejected", "expired"] });
  });

  it("writes a list as the repeated parameter the API reads", () => {
    expect(queryString(queueQuery("open", { sort: "dueAt" }))).toBe("?status=requested&status=on_review&sort=dueAt");
    expect(queryString({ status: [], kind: "" })).toBe("");
  });
});

describe("age and due state", () => {
  const now = new Date("2026-11-26T15:00:00Z");

  it("says the age in its largest whole unit", () => {
    expect(formatAge("2026-11-23T14:00:00Z", now)).toBe("3 d");
    expect(formatAge("2026-11-26T10:00:00Z", now)).toBe("5 h");
    expect(formatAge("2026-11-26T14:48:00Z", now)).toBe("12 min");
    expect(formatAge("2026-11-26T14:59:30Z", now)).toBe("< 1 min");
    // A clock a little behind the server's: never a negative age.
    expect(formatAge("2026-11-26T15:00:05Z", now)).toBe("< 1 min");
  });

  it("tells overdue, due today, later, closed and no SLA apart", () => {
    const open = { status: "on_review" as const, overdue: false };
    expect(dueStateOf({ ...open, dueAt: null }, now)).toBe("none");
    expect(dueStateOf({ ...open, dueAt: "2026-11-26T14:00:00Z", overdue: true }, now)).toBe("overdue");
    // Passed since the page was read: overdue without waiting for the API to say so.
    expect(dueStateOf({ ...open, dueAt: "2026-11-26T14:59:00Z" }, now)).toBe("overdue");
    const laterToday = new Date(now.getTime() + 60_000).toISOString();
    expect(dueStateOf({ ...open, dueAt: laterToday }, now)).toBe("today");
    expect(dueStateOf({ ...open, dueAt: "2026-12-05T12:00:00Z" }, now)).toBe("later");
    expect(dueStateOf({ status: "approved", overdue: false, dueAt: "2026-11-20T12:00:00Z" }, now)).toBe("closed");
  });
});
