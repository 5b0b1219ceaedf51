import type { Case } from './secret-route-areas';

/** The csv-export feature's routes, driven with every known secret (filled in with it). */
export const csvExportCases: Case[] = [];
