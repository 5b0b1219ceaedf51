import type { PageRequest } from '@tc/contract/paging';
import { webhookRoutes } from '@tc/contract/routes/webhooks';
import type {
  Webhook,
  WebhookCreate,
  WebhookDeliveryPageRequest,
  WebhookPageRequest,
  WebhookUpdate,
} from '@tc/contract/webhooks';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ListSource } from '../../../components/entity-list/list-page';
import { callRoute } from '../../../lib/api';

const KEY = 'webhooks';

/** The tenant's endpoints for the shared list page, by address unless asked otherwise. */
export const webhooksSource: ListSource<Webhook> = {
  name: KEY,
  defaultSort: { field: 'url', direction: 0 },
  fetchPage: (request: PageRequest, signal?: AbortSignal) =>
    callRoute(webhookRoutes.page, { body: request as WebhookPageRequest, signal }),
};

/** A mutation that refreshes the endpoints and their delivery logs once it is done. */
function useWebhookMutation<Input, Result>(work: (input: Input) => Promise<Result>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: work,
    onSettled: () => client.invalidateQueries({ queryKey: [KEY] }),
  });
}

/**
 * What the endpoint dialog confirms: a create (answered with the row and its signing secret,
 * shown once), an update, or a delete (answered with nothing).
 */
export function useWebhookSave(mode: string, id: string | undefined) {
  return useWebhookMutation(async (values: WebhookCreate) => {
    if (mode === 'delete') {
      await callRoute(webhookRoutes.remove, { params: { id: id! } });
      return undefined;
    }
    return mode === 'add'
      ? callRoute(webhookRoutes.create, { body: values })
      : callRoute(webhookRoutes.update, { body: { ...values, id: id! } as WebhookUpdate });
  });
}

/** A new signing secret; the previous one stops signing at once. */
export const useRotateWebhookSecret = (id: string) =>
  useWebhookMutation(
    async () => (await callRoute(webhookRoutes.rotateSecret, { params: { id } })).secret,
  );

/** Queues a `webhook.test` event for the endpoint. */
export const useSendTestEvent = () =>
  useWebhookMutation((id: string) => callRoute(webhookRoutes.sendTest, { params: { id } }));

/** Sends a delivery again (same message id). */
export const useResendDelivery = (id: string) =>
  useWebhookMutation((deliveryId: string) =>
    callRoute(webhookRoutes.resend, { params: { id, deliveryId } }),
  );

/**
 * One page of an endpoint's deliveries, newest first. Refreshed every few seconds while any of
 * them is pending, so a test event is seen arriving.
 */
export function useDeliveries(id: string, pageIndex: number, pageSize: number) {
  const body: WebhookDeliveryPageRequest = {
    pageIndex,
    pageSize,
    filter: {},
    listSort: { field: 'createdAt', direction: 1 },
  };
  return useQuery({
    queryKey: [KEY, id, 'deliveries', pageIndex, pageSize],
    queryFn: ({ signal }) => callRoute(webhookRoutes.deliveries, { params: { id }, body, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.data.some((delivery) => delivery.status === 'pending') ? 2_000 : false,
  });
}
