/** The tenant's webhook endpoints and their deliveries (filled in by the webhooks feature). */
export const webhookRoutes = {};
