/** Importing users from a CSV file (filled in by the import feature). */
export const userImportRoutes = {};
