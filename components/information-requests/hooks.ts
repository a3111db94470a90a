"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/client/api";
import { useApiQuery, useInvalidate } from "@/lib/client/queries";
import { queryKey } from "@/lib/client/query-keys";
import { currentAccountId } from "@/lib/client/current-account";
import type { ResponseOf } from "@/lib/contract/endpoint";
import {
  getInformationRequestEndpoint,
  listInformationRequestsEndpoint,
  listTransferInformationRequestsEndpoint,
  updateInformationRequestStatusEndpoint,
} from "@/lib/information-requests/endpoints";
import type {
  InformationRequestKind,
  InformationRequestStatus,
  UpdateInformationRequestStatusInput,
} from "@/lib/information-requests/schemas";
import { getTransferEndpoint } from "@/lib/transfers/endpoints";

export type InformationRequest = ResponseOf<typeof updateInformationRequestStatusEndpoint>;
export type InformationRequestDetail = ResponseOf<typeof getInformationRequestEndpoint>;
export type Transfer = ResponseOf<typeof getTransferEndpoint>;

export const kindLabels: Record<InformationRequestKind, string> = {
  due_diligence: "Due diligence",
  endorsement: "Endorsement",
};

/** Each status as the status filter names it. */
export const statusLabels: Record<InformationRequestStatus, string> = {
  requested: "Requested",
  on_review: "On review",
  approved: "Approved",
  rejected: "Rejected",
  expired: "Expired",
};

/** The verb on each transition's button, by the status it moves to. */
export const transitionLabels: Record<InformationRequestStatus, string> = {
  requested: "Reopen",
  on_review: "Start review",
  approved: "Approve",
  rejected: "Reject",
  expired: "Expire",
};

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
