import type { Webhook } from '@tc/contract/webhooks';

/** The endpoint dialog's fields, as the form holds them. */
export interface WebhookForm {
  url: string;
  description: string;
  eventTypes: string[];
  enabled: boolean;
}

export const webhookDefaults = (row?: Webhook): WebhookForm => ({
  url: row?.url ?? '',
  description: row?.description ?? '',
  eventTypes: row?.eventTypes ?? ['*'],
  enabled: row?.enabled ?? true,
});
