import type { Webhook } from '@tc/contract/webhooks';

/** The endpoint dialog's fields, as the form holds them. */
export interface WebhookForm {
  url: string;
  description: string;
  eventTypes: string[];
  enabled: boolean;
}

/** A new endpoint receives everything, when its author may read everything. */
export const webhookDefaults = (row: Webhook | undefined, mayAll: boolean): WebhookForm => ({
  url: row?.url ?? '',
  description: row?.description ?? '',
  eventTypes: row?.eventTypes ?? (mayAll ? ['*'] : []),
  enabled: row?.enabled ?? true,
});
