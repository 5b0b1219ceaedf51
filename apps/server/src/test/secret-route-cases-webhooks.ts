import type { Case } from './secret-route-areas';

/** The webhooks feature's routes, driven with every known secret (filled in with it). */
export const webhookCases: Case[] = [];
