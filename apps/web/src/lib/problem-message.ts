import { ApiError } from './api-client';

/** A readable message for any failure: the problem's detail or title, else the error text. */
export function problemMessage(error: unknown): string {
  if (error instanceof ApiError) {
    const fields = error.problem?.errors ? Object.values(error.problem.errors) : [];
    return fields.length > 0 ? fields.join(' ') : error.message;
  }
  return error instanceof Error ? error.message : String(error);
}
