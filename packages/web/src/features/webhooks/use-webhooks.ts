import type {
  CreateWebhookRequest,
  MsgBody,
  ResendWebhookRequest,
  UpdateWebhookRequest,
  WebhookDeliveries,
  WebhookList,
  WebhookRequest,
  WebhookSecret,
  WebhookSubscription,
} from "@ledgerline/contract";
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiPost } from "../../api/index.ts";
import { DELIVERY_PAGE, olderThan } from "./webhook-texts.ts";

/** Every webhooks query starts with "webhooks": a change refreshes the list and the open log. */
export const webhookKeys = {
  all: ["webhooks"] as const,
  list: (context: string) => ["webhooks", "list", context] as const,
  deliveries: (subscriptionId: number) => ["webhooks", "deliveries", subscriptionId] as const,
};

/** While something waits to be sent, the counts and statuses move without the user's doing. */
const WAITING_REFRESH_MS = 5000;

/** The application's subscriptions (POST /api/webhooks/list, administrators). */
export function useWebhooks(context: string) {
  return useQuery({
    queryKey: webhookKeys.list(context),
    queryFn: ({ signal }) => apiPost<WebhookList>("/api/webhooks/list", { context }, { signal }),
    staleTime: 0,
    refetchInterval: (query) =>
      query.state.data?.subscriptions.some((s) => s.queued > 0) ? WAITING_REFRESH_MS : false,
  });
}

/** A subscription's delivery log, newest first, a page of 50 at a time (POST /api/webhooks/deliveries). */
export function useWebhookDeliveries(subscriptionId: number) {
  return useInfiniteQuery({
    queryKey: webhookKeys.deliveries(subscriptionId),
    queryFn: ({ pageParam, signal }) =>
      apiPost<WebhookDeliveries>(
        "/api/webhooks/deliveries",
        { subscriptionId, before: pageParam, limit: DELIVERY_PAGE },
        { signal },
      ),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => olderThan(last.deliveries),
    staleTime: 0,
    refetchInterval: (query) =>
      query.state.data?.pages.some((p) => p.deliveries.some((d) => d.status === "queued"))
        ? WAITING_REFRESH_MS
        : false,
  });
}

function useWebhookMutation<Request extends object, Answer>(path: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: Request) => apiPost<Answer>(path, request),
    // A secret stays in the page that shows it, not in the mutation cache.
    gcTime: 0,
    // A refusal ('no subscription has the id') means the list is stale too.
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhookKeys.all }),
  });
}

/** POST /api/webhooks/create: the answer holds the secret, shown once. */
export const useCreateWebhook = () =>
  useWebhookMutation<CreateWebhookRequest, WebhookSecret>("/api/webhooks/create");

/** POST /api/webhooks/update: address, types and events; the secret stays. */
export const useUpdateWebhook = () =>
  useWebhookMutation<UpdateWebhookRequest, WebhookSubscription>("/api/webhooks/update");

/** POST /api/webhooks/rotate: a new secret, shown once; the previous one signs a while longer. */
export const useRotateWebhook = () =>
  useWebhookMutation<WebhookRequest, WebhookSecret>("/api/webhooks/rotate");

/** POST /api/webhooks/pause, /resume or /remove, by the action's name. */
export const useWebhookAction = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, subscriptionId }: WebhookAction) =>
      apiPost<MsgBody>(`/api/webhooks/${action}`, { subscriptionId }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhookKeys.all }),
  });
};

/** 'Refresh' of a delivery log: the log and the list's counts, which move with it. */
export function useRefreshWebhooks() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: webhookKeys.all });
}

export interface WebhookAction {
  action: "pause" | "resume" | "remove";
  subscriptionId: number;
}

/** POST /api/webhooks/resend: one delivery queued again at once, with its own webhook-id. */
export const useResendDelivery = () =>
  useWebhookMutation<ResendWebhookRequest, MsgBody>("/api/webhooks/resend");
