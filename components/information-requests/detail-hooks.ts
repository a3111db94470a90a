"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, fetchBlob } from "@/lib/client/api";
import { currentAccountId, useCurrentAccount } from "@/lib/client/current-account";
import { useApiQuery, useInvalidate } from "@/lib/client/queries";
import { queryKey } from "@/lib/client/query-keys";
import type { ResponseOf } from "@/lib/contract/endpoint";
import {
  getInformationRequestEndpoint,
  listInformationRequestsEndpoint,
  listInformationRequestTimelineEndpoint,
  updateInformationRequestEndpoint,
  updateInformationRequestStatusEndpoint,
} from "@/lib/information-requests/endpoints";
import {
  getInformationRequestDocumentContentEndpoint,
  uploadInformationRequestDocumentEndpoint,
} from "@/lib/information-requests/evidence-endpoints";
import type {
  UpdateInformationRequestInput,
  UpdateInformationRequestStatusInput,
} from "@/lib/information-requests/schemas";

export type CaseDetail = ResponseOf<typeof getInformationRequestEndpoint>;
export type TimelineEntry = ResponseOf<typeof listInformationRequestTimelineEndpoint>[number];

export function useCase(id: string) {
  return useApiQuery(getInformationRequestEndpoint, { params: { id } });
}

/** The request's timeline, oldest first. */
export function useTimeline(id: string) {
  return useApiQuery(listInformationRequestTimelineEndpoint, { params: { id } });
}

/**
 * After any change to a request: the request, everything under its path (timeline, notes,
 * documents) and the lists are read again, so the page shows what the server recorded.
 */
function useRefreshCase(id: string) {
  const invalidate = useInvalidate();
  return () =>
    Promise.all([invalidate(getInformationRequestEndpoint, { id }), invalidate(listInformationRequestsEndpoint)]);
}

/** Puts a changed request in the cache at once (the refresh follows). */
function useSetCase(id: string) {
  const queryClient = useQueryClient();
  return (changed: Partial<CaseDetail>) =>
    queryClient.setQueryData<CaseDetail>(
      queryKey(getInformationRequestEndpoint, { params: { id }, accountId: currentAccountId() }),
      (old) => (old ? { ...old, ...changed } : old),
    );
}

/** POST /v1/information_requests/{id}: assign (null unassigns) or change the priority. */
export function useUpdateCase(id: string) {
  const setCase = useSetCase(id);
  const refresh = useRefreshCase(id);
  return useMutation({
    mutationFn: (body: UpdateInformationRequestInput) =>
      api(updateInformationRequestEndpoint, { params: { id }, body }),
    onSuccess: (changed) => setCase(changed),
    onSettled: refresh,
  });
}

export type Decision = UpdateInformationRequestStatusInput;

/** POST /v1/information_requests/{id}/status; whatever the answer (a 409 means the page was stale), all is read again. */
export function useDecide(id: string) {
  const setCase = useSetCase(id);
  const refresh = useRefreshCase(id);
  return useMutation({
    mutationFn: (body: Decision) => api(updateInformationRequestStatusEndpoint, { params: { id }, body }),
    onSuccess: (moved) => setCase(moved),
    onSettled: refresh,
  });
}

export function useUploadDocument(id: string) {
  const refresh = useRefreshCase(id);
  return useMutation({
    mutationFn: (file: File) => api(uploadInformationRequestDocumentEndpoint, { params: { id }, body: { file } }),
    onSuccess: refresh,
  });
}

/**
 * A document's bytes, for an image's preview. Documents never change, so they are read once: the key
 * lies outside the request's path, which every change of the request refreshes.
 */
export function useDocumentBlob(id: string, documentId: string, enabled = true) {
  const accountId = useCurrentAccount();
  const params = { id, docId: documentId };
  return useQuery({
    queryKey: ["document-bytes", documentId, { account: accountId }],
    queryFn: () => fetchBlob(getInformationRequestDocumentContentEndpoint, { params, accountId }),
    enabled,
    staleTime: Infinity,
  });
}

/** Saves a document under its own name: its bytes are read with the page's account, then handed to the browser. */
export async function downloadDocument(id: string, document: { id: string; fileName: string }) {
  const blob = await fetchBlob(getInformationRequestDocumentContentEndpoint, {
    params: { id, docId: document.id },
  });
  const url = URL.createObjectURL(blob);
  const link = window.document.createElement("a");
  link.href = url;
  link.download = document.fileName;
  link.click();
  // The browser has taken the bytes once the click is handled; the address can go after that.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
