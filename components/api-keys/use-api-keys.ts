"use client";

import { useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import type { apiKeyCreatedSchema, apiKeySchema } from "@/lib/api-keys/schemas";
import { api } from "@/lib/client/api";

export type ApiKey = z.infer<typeof apiKeySchema>;
export type ApiKeyCreated = z.infer<typeof apiKeyCreatedSchema>;
export type ApiKeyStatus = "active" | "revoked" | "expired";

export const apiKeysQueryKey = ["api-keys"] as const;

/** The account's keys, newest first (GET /v1/api_keys answers a plain array). */
export function useApiKeys() {
  return useQuery({ queryKey: apiKeysQueryKey, queryFn: () => api<ApiKey[]>("/v1/api_keys") });
}

export function statusOf(key: ApiKey, now = Date.now()): ApiKeyStatus {
  if (key.revokedAt) return "revoked";
  return new Date(key.expiresAt).getTime() <= now ? "expired" : "active";
}

/** How people recognise a key: its name, else its prefix. */
export const labelOf = (key: Pick<ApiKey, "name" | "prefix">) => key.name ?? `${key.prefix}…`;
