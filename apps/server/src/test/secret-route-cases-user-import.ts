import type { Case } from './secret-route-areas';

/** The user-import feature's routes, driven with every known secret (filled in with it). */
export const userImportCases: Case[] = [];
