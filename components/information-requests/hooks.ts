"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { api } from "@/lib/client/api";
import type {
  InformationRequestKind,
  InformationRequestStatus,
  informationRequestDetailSchema,
  informationRequestSchema,
} from "@/lib/information-requests/schemas";
import type { transferSchema } from "@/lib/transfers/schemas";

export type InformationRequest = z.output<typeof informationRequestSchema>;
export type InformationRequestDetail = z.output<typeof informationRequestDetailSchema>;
export type Transfer = z.output<typeof transferSchema>;

export const kindLabels: Record<InformationRequestKind, string> = {
  due_diligence: "Due diligence",
  endorsement: "Endorsement",
};

/** The verb on each transition's button, by the status it moves to. */
export const transitionLabels: Record<InformationRequestStatus, string> = {
  requested: "Reopen",
  on_review: "Start review",
  approved: "Approve",
  rejected: "Reject",
  expired: "Expire",
};

export const informationRequestKey = (id: string) => ["information-request", id] as const;

export function useInformationRequest(id: string) {
  return useQuery({
    queryKey: informationRequestKey(id),
    queryFn: () => api<InformationRequestDetail>(`/v1/information_requests/${encodeURIComponent(id)}`),
  });
}

export function useTransfer(id: string | null) {
  return useQuery({
    queryKey: ["transfer", id],
    queryFn: () => api<Transfer>(`/v1/transfers/${encodeURIComponent(id!)}`),
    enabled: id !== null,
  });
}

/** POST /v1/information_requests/{id}/status; whatever the answer, the request and the lists are read again. */
export function useMoveInformationRequest(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ status, reason }: { status: InformationRequestStatus; reason?: string }) =>
      api<InformationRequest>(`/v1/information_requests/${encodeURIComponent(id)}/status`, { method: "POST", body: { status, reason } }),
    onSuccess: (moved) => {
      queryClient.setQueryData<InformationRequestDetail>(informationRequestKey(id), (old) => (old ? { ...old, ...moved } : old));
    },
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: ["information-requests"] });
      // After a 409 the page was stale: read the request's real status before offering actions again.
      await queryClient.invalidateQueries({ queryKey: informationRequestKey(id) });
    },
  });
}
