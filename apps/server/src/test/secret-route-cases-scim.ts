import type { Case } from './secret-route-areas';

/** The scim feature's routes, driven with every known secret (filled in with it). */
export const scimCases: Case[] = [];
