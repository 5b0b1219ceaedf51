import type { Page } from '@tc/contract/paging';
import { userImportRoutes } from '@tc/contract/routes/user-import';
import { API_BASE_PATH } from '@tc/contract/route';
import type {
  UserImportJob,
  UserImportMappingRequest,
  UserImportRow,
  UserImportRowStatus,
} from '@tc/contract/user-import';
import { callRoute } from '../../../lib/api';
import { apiRequest, apiStream } from '../../../lib/api-client';
import { saveAnswerAsFile } from '../../../lib/csv-download';

/**
 * The import's query keys sit under `users`: every created user's change event refreshes the
 * users queries (lib/live-events.ts), so the job's progress follows the events stream live.
 */
export const importKeys = {
  job: (id: string) => ['users', 'import', id, 'job'] as const,
  rows: (id: string, page: number, pageSize: number, status: UserImportRowStatus | undefined) =>
    ['users', 'import', id, 'rows', page, pageSize, status ?? 'all'] as const,
};

/** The file is sent as it is, as text/csv: the server reads it while it arrives. */
export async function uploadFile(file: Blob): Promise<UserImportJob> {
  const body = new Blob([file], { type: 'text/csv' });
  const answer = await apiRequest<{ data: UserImportJob }>(`${API_BASE_PATH}/user-imports`, {
    method: 'POST',
    body,
  });
  return answer.data;
}

export const fetchJob = (id: string, signal?: AbortSignal) =>
  callRoute(userImportRoutes.get, { params: { id }, signal });

export const saveMapping = (id: string, body: UserImportMappingRequest) =>
  callRoute(userImportRoutes.map, { params: { id }, body });

export const fetchRows = (
  id: string,
  request: { pageIndex: number; pageSize: number; status?: UserImportRowStatus },
  signal?: AbortSignal,
): Promise<Page<UserImportRow>> =>
  callRoute(userImportRoutes.rows, {
    params: { id },
    body: {
      pageIndex: request.pageIndex,
      pageSize: request.pageSize,
      filter: request.status ? { status: request.status } : {},
    },
    signal,
  });

export const applyImport = (id: string) => callRoute(userImportRoutes.apply, { params: { id } });

/**
 * Saves the result file (every row with its outcome) through a temporary download link,
 * separated as the spreadsheet of the console's `language` expects (`;` in de, fr and it).
 */
export async function downloadResult(id: string, language?: string): Promise<void> {
  const response = await apiStream(`${API_BASE_PATH}/user-imports/${id}/result`, {
    headers: { Accept: 'text/csv', ...(language && { 'Accept-Language': language }) },
  });
  await saveAnswerAsFile(response, 'user-import-result.csv');
}
