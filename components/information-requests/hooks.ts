"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, type QueryValue } from "@/lib/client/api";
import { currentAccountId } from "@/lib/client/current-account";
import { useApiQuery, useCursorList, useInvalidate } from "@/lib/client/queries";
import { queryKey } from "@/lib/client/query-keys";
import type { ResponseOf } from "@/lib/contract/endpoint";
import {
  bulkInformationRequestsEndpoint,
  getInformationRequestEndpoint,
  listInformationRequestsEndpoint,
  listTransferInformationRequestsEndpoint,
  updateInformationRequestStatusEndpoint,
} from "@/lib/information-requests/endpoints";
import type {
  InformationRequestReasonCode,
  InformationRequestStatus,
  UpdateInformationRequestStatusInput,
} from "@/lib/information-requests/schemas";
import { getTransferEndpoint } from "@/lib/transfers/endpoints";
import { useCan } from "@/components/me";
import { useEmployees } from "@/components/employees/use-employees";
import { ROLE_PERMISSIONS } from "@/lib/auth/permissions";

export type InformationRequest = ResponseOf<typeof updateInformationRequestStatusEndpoint>;
export type InformationRequestDetail = ResponseOf<typeof getInformationRequestEndpoint>;
export type Transfer = ResponseOf<typeof getTransferEndpoint>;

export function useInformationRequest(id: string) {
  return useApiQuery(getInformationRequestEndpoint, { params: { id } });
}

export function useTransfer(id: string | null) {
  return useApiQuery(getTransferEndpoint, { params: { id: id ?? "" }, enabled: id !== null });
}

/** The requests raised against one transfer (a plain array, oldest first). */
export function useTransferRequests(transferId: string) {
  return useApiQuery(listTransferInformationRequestsEndpoint, { params: { id: transferId } });
}

/** POST /v1/information_requests/{id}/status; whatever the answer, the request and the lists are read again. */
export function useMoveInformationRequest(request: Pick<InformationRequest, "id" | "transferId">) {
  const { id, transferId } = request;
  const queryClient = useQueryClient();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: UpdateInformationRequestStatusInput) =>
      api(updateInformationRequestStatusEndpoint, { params: { id }, body }),
    onSuccess: (moved) => {
      queryClient.setQueryData<InformationRequestDetail>(
        queryKey(getInformationRequestEndpoint, { params: { id }, accountId: currentAccountId() }),
        (old) => (old ? { ...old, ...moved } : old),
      );
    },
    // The collection's key prefixes every list page and the request itself: after a 409 the page was
    // stale, so the request's real status is read before actions are offered again.
    onSettled: () =>
      Promise.all([
        invalidate(listInformationRequestsEndpoint),
        transferId ? invalidate(listTransferInformationRequestsEndpoint, { id: transferId }) : undefined,
      ]),
  });
}

/** One page of the work queue (a view's filters, the page's own, its sort), from the URL's cursor. */
export function useRequestQueue(query: Record<string, QueryValue>, from: string | undefined) {
  return useCursorList(listInformationRequestsEndpoint, { query, from });
}

/** Whether a role may decide information requests (the API's rule for an assignee). */
const mayDecide = (role: keyof typeof ROLE_PERMISSIONS) =>
  ROLE_PERMISSIONS[role].includes("information_requests:write");

/**
 * The platform's employees, for assignee names and the assignee picker (only for those who may
 * read the employee list: others see ids, and pick only themselves). `deciders`: the active
 * employees whose role may decide requests, the ones a request may be assigned to.
 */
export function useAssignees() {
  const canRead = useCan()("employees:read");
  const employees = useEmployees({ enabled: canRead });
  const all = employees.data ?? [];
  return {
    names: new Map(all.map((employee) => [employee.id, employee.name])),
    deciders: all.filter((employee) => employee.status === "active" && mayDecide(employee.role)),
    canRead,
  };
}

export type BulkBody =
  | { action: "assign"; assigneeId: string | null }
  | { action: "status"; status: InformationRequestStatus; reasonCode?: InformationRequestReasonCode; reason?: string };

/** POST /v1/information_requests/bulk: each item applied as if sent alone; the queue is read again whatever the answer. */
export function useBulkAction() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ ids, ...body }: BulkBody & { ids: string[] }) =>
      api(bulkInformationRequestsEndpoint, { body: { ids, ...body } }),
    onSettled: () => invalidate(listInformationRequestsEndpoint),
  });
}

/** What a bulk item's refusal says, whatever shape the API gave it. */
export function refusalText(error: unknown): string {
  if (typeof error === "string") return error;
  if (typeof error === "object" && error !== null && "message" in error) return String(error.message);
  return "Refused";
}
