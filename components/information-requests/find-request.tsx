"use client";

import { useId, useState, type FormEvent } from "react";
import { useAccountRouter } from "@/components/account-scope";
import { api, ApiRequestError } from "@/lib/client/api";
import { getInformationRequestEndpoint } from "@/lib/information-requests/endpoints";
import { idPattern } from "@/lib/ids/schema";

/** Opens a request by its id (`ir_…`, pasted from an e-mail or a webhook), or says why it cannot. */
export function FindRequest() {
  const router = useAccountRouter();
  const id = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const find = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const wanted = String(new FormData(event.currentTarget).get("id") ?? "").trim();
    if (!idPattern("ir").test(wanted))
      return setProblem("An information request id starts with ir_ (ir_ and letters or digits).");
    setProblem(null);
    setPending(true);
    try {
      await api(getInformationRequestEndpoint, { params: { id: wanted } });
      router.push(`/information-requests/${encodeURIComponent(wanted)}`);
    } catch (error) {
      setPending(false);
      setProblem(
        error instanceof ApiRequestError && error.status === 404
          ? `No information request ${wanted} in this account.`
          : error instanceof Error
            ? error.message
            : "Could not reach the server.",
      );
    }
  };
  return (
    <form
      className="row find-request"
      role="search"
      aria-label="Find an information request"
      onSubmit={(event) => void find(event)}
      noValidate
    >
      <div className="field">
        <label htmlFor={id}>Find by id</label>
        <input
          id={id}
          name="id"
          placeholder="ir_…"
          autoComplete="off"
          spellCheck={false}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-error` : undefined}
          onChange={() => setProblem(null)}
        />
        {problem && (
          <span id={`${id}-error`} className="field-error" role="alert">
            {problem}
          </span>
        )}
      </div>
      <button type="submit" disabled={pending}>
        {pending ? "Opening…" : "Open"}
      </button>
    </form>
  );
}
